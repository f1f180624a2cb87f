"""One thread per driver that serves every running job's store requests: files moved into watched folders (inotify)."""

from __future__ import annotations

import ctypes
import logging
import os
import select
import struct
import threading

# Why: a thread per job cost its start before the job's gate could open and its join after the job ended (the join
# alone about 0.6 ms of a trivial job), and a request FIFO in each run folder a mkdir, mkfifo, unlink and rmdir per
# job (0.1-0.3 ms each on a journaling file system). A watch costs two system calls and leaves nothing on disk.
logger = logging.getLogger(__name__)
_IN_MOVED_TO, _IN_NONBLOCK, _IN_CLOEXEC = 0x80, os.O_NONBLOCK, os.O_CLOEXEC
_EVENT = struct.Struct("iIII")  # struct inotify_event: wd, mask, cookie, len; then the name, NUL-padded
_lock = threading.Lock()
_service: "_Service | None" = None


class _Service:
    def __init__(self):
        self.pid = os.getpid()
        self._libc = ctypes.CDLL(None, use_errno=True)
        self._fd = self._libc.inotify_init1(_IN_NONBLOCK | _IN_CLOEXEC)
        if self._fd < 0:
            raise OSError(ctypes.get_errno(), f"inotify_init1: {os.strerror(ctypes.get_errno())}")
        self._handlers: dict = {}  # watch descriptor -> callable(name), called on this service's thread
        threading.Thread(target=self._serve, name="acpt-store-grants", daemon=True).start()

    def watch(self, folder: str, handler) -> int:
        wd = self._libc.inotify_add_watch(self._fd, os.fsencode(folder), _IN_MOVED_TO)
        if wd < 0:
            code = ctypes.get_errno()
            raise OSError(code, f"inotify_add_watch {folder}: {os.strerror(code)}")
        self._handlers[wd] = handler
        return wd

    def unwatch(self, wd: int) -> None:
        self._handlers.pop(wd, None)
        self._libc.inotify_rm_watch(self._fd, wd)  # (fails harmlessly when the folder is gone already)

    def _serve(self) -> None:
        poller = select.poll()
        poller.register(self._fd, select.POLLIN)
        while True:
            poller.poll()
            try:
                data = os.read(self._fd, 65536)
            except BlockingIOError:
                continue
            offset = 0
            while offset < len(data):
                wd, _, _, length = _EVENT.unpack_from(data, offset)
                name = data[offset + _EVENT.size:offset + _EVENT.size + length].split(b"\0", 1)[0]
                offset += _EVENT.size + length
                handler = self._handlers.get(wd)
                if handler is None or not name:  # unwatched meanwhile: its owner tidied up itself
                    continue
                try:
                    handler(os.fsdecode(name))
                except Exception:  # noqa: BLE001 - one job's failed request must not end the service for all
                    logger.exception("Serving a local job's store request failed")


def watch_moves(folder: str, handler) -> int:
    """Call ``handler(name)`` on the service's thread for each file renamed into ``folder`` (not below it), until
    ``unwatch``. The thread is started by the first call, so it has the capabilities of the thread that made it (not
    those of a job's watcher thread, which dropped some). Raises OSError where inotify is unavailable."""
    global _service
    with _lock:
        if _service is None or _service.pid != os.getpid():  # (a forked driver has no copy of the thread)
            _service = _Service()
        return _service.watch(folder, handler)


def unwatch(wd: int) -> None:
    """No more calls for ``wd`` start after this returns (one running may still finish: the caller's lock decides)."""
    with _lock:
        if _service is not None and _service.pid == os.getpid():
            _service.unwatch(wd)
