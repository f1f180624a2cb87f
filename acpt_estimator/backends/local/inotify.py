"""A Linux inotify descriptor through libc (ctypes): watch folders, read the names of what happened in them."""

from __future__ import annotations

import ctypes
import os
import struct

IN_CREATE, IN_MOVED_TO = 0x100, 0x80
_EVENT = struct.Struct("iIII")  # struct inotify_event: wd, mask, cookie, len; then the name, NUL-padded
_libc: list = []  # [libc], loaded on first use


class Inotify:
    """One non-blocking, close-on-exec inotify descriptor (``fd``, for select/poll). Raises OSError where the
    system has none (or the user's limit of instances is reached)."""

    def __init__(self):
        if not _libc:
            _libc.append(ctypes.CDLL(None, use_errno=True))
        self._libc = _libc[0]
        self.fd = self._libc.inotify_init1(os.O_NONBLOCK | os.O_CLOEXEC)
        if self.fd < 0:
            code = ctypes.get_errno()
            raise OSError(code, f"inotify_init1: {os.strerror(code)}")

    def watch(self, folder: str, mask: int) -> int:
        """The watch descriptor for events ``mask`` on ``folder`` itself (not below it)."""
        wd = self._libc.inotify_add_watch(self.fd, os.fsencode(folder), mask)
        if wd < 0:
            code = ctypes.get_errno()
            raise OSError(code, f"inotify_add_watch {folder}: {os.strerror(code)}")
        return wd

    def unwatch(self, wd: int) -> None:
        self._libc.inotify_rm_watch(self.fd, wd)  # (fails harmlessly when the folder is gone already)

    def read(self) -> list[tuple[int, str]]:
        """The (watch descriptor, name) of each event waiting; [] when none is."""
        try:
            data = os.read(self.fd, 65536)
        except BlockingIOError:
            return []
        events, offset = [], 0
        while offset < len(data):
            wd, _, _, length = _EVENT.unpack_from(data, offset)
            name = data[offset + _EVENT.size:offset + _EVENT.size + length].split(b"\0", 1)[0]
            offset += _EVENT.size + length
            events.append((wd, os.fsdecode(name)))
        return events
