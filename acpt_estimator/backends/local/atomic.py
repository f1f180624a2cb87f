"""Atomic publishing in the local store: files by ``os.replace``, registry versions by renaming a staged folder."""

from __future__ import annotations

import contextlib
import errno
import os
import re
import shutil
import stat
import tempfile

# The writer's pid is part of every temporary name, so the next writer can tell a dead writer's leftovers.
_WRITER = re.compile(r"\.(?:.+\.(?P<pid>\d+)\.[a-z0-9_]{8}\.tmp|staging-(?P<spid>\d+)-[a-z0-9_]{8})")


def copy_file(source: str, dest: str, cleaned: set | None = None) -> None:
    """Copy ``source`` to ``dest`` so a reader sees the old file or the new one, never a mix of two writers.
    A dead writer's leftovers in the folder are removed first (once per folder in ``cleaned``, for uploads that
    write many files into one folder)."""
    folder = os.path.dirname(dest)
    os.makedirs(folder, exist_ok=True)
    if cleaned is None or folder not in cleaned:
        clean_stale(folder)
        if cleaned is not None:
            cleaned.add(folder)
    handle, tmp = tempfile.mkstemp(dir=folder, prefix=f".{os.path.basename(dest)}.{os.getpid()}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as out, open(source, "rb") as src:
            shutil.copyfileobj(src, out)
        os.replace(tmp, dest)
    except BaseException:
        _remove(tmp)
        raise


def write_text(dest: str, text: str) -> None:
    """Replace ``dest`` with ``text`` so a reader sees the old file or the new one; the temporary name carries the
    writer's pid (``clean_stale`` knows it) and is unique per call, so threads of one process never share it."""
    StagedText(dest, text).commit()


class StagedText:
    """``text`` written now beside ``dest``, under a temporary name (write_text's); ``commit()`` puts it in place
    atomically, ``discard()`` drops it. A run's final record is staged while its launcher is still ending and
    committed once it has."""

    def __init__(self, dest: str, text: str, into: str | None = None):
        """``into``: an existing regular file beside ``dest`` to write ``text`` into (over its first bytes, the rest
        cut off) instead of a new temporary, where there is one (store.write_final_json: the run's reserve)."""
        self.dest = dest
        handle = writable_regular_file(into) if into is not None else None
        if handle is not None:
            self.tmp = into
        else:
            handle, self.tmp = tempfile.mkstemp(dir=os.path.dirname(dest), prefix=f".{os.path.basename(dest)}."
                                                f"{os.getpid()}.", suffix=".tmp")
        try:
            try:
                # The descriptor itself: a text file object around it costs four more system calls per record.
                raw = text.encode("utf-8")
                view, offset = memoryview(raw), 0
                while offset < len(raw):
                    offset += os.pwrite(handle, view[offset:], offset)
                os.ftruncate(handle, len(raw))
            finally:
                os.close(handle)
        except BaseException:  # never leave a half-written temporary behind (a full disk, Ctrl-C)
            _remove(self.tmp)
            raise

    def commit(self, hold_old: bool = False) -> int | None:
        """``hold_old``: the old version swapped out is opened before its name goes, and the descriptor returned (None
        where there is none) for the caller to close when nobody waits for that (a run's end). The name goes now, so
        nothing is left in the folder for a caller that removes it at once; the file's blocks and inode go with its
        last reference, which is most of an unlink's cost on ext4 (~0.08 ms against ~5 us here)."""
        try:
            exchanged = _exchanged(self.tmp, self.dest)
            if not exchanged:
                os.replace(self.tmp, self.dest)
        except BaseException:
            _remove(self.tmp)
            raise
        if not exchanged:
            return None
        # Committed: the old version, swapped out, now has the temporary name. Where that cannot be removed (a folder
        # a job put in the record's place), it stays, unfollowed: the commit stands.
        held = _held(self.tmp) if hold_old else None
        with contextlib.suppress(OSError):
            os.unlink(self.tmp)
        return held

    def discard(self) -> None:
        _remove(self.tmp)


def writable_regular_file(path: str) -> int | None:
    """``path`` opened for writing (its content kept), if it is a regular file of one name (not a link, FIFO, folder
    or second name of another file that a job left there in its place: none of those is followed or changed); else
    None."""
    try:
        handle = os.open(path, os.O_WRONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    info = os.fstat(handle)
    if not stat.S_ISREG(info.st_mode) or info.st_nlink != 1:
        os.close(handle)
        return None
    return handle


_RENAME_NOREPLACE, _RENAME_EXCHANGE, _AT_FDCWD = 1, 2, -100
_renameat2: list = []  # [libc's renameat2, or None where there is none]


def _exchanged(tmp: str, dest: str) -> bool:
    """Swap ``tmp`` into ``dest`` atomically where ``dest`` exists (renameat2 RENAME_EXCHANGE); False where it does not,
    or the system cannot (then os.replace does it). Why not always os.replace: ext4 flushes a file renamed over an
    existing one (auto_da_alloc), 0.2-0.4 ms for a run's final record on this project's machines; an exchange is no
    such rename."""
    function = _renameat2_function()
    return function is not None and function(_AT_FDCWD, os.fsencode(tmp), _AT_FDCWD, os.fsencode(dest),
                                             _RENAME_EXCHANGE) == 0


def renamed_unless_there(source: str, dest: str) -> bool | None:
    """``source`` renamed to ``dest`` only where nothing has that name (renameat2 RENAME_NOREPLACE): True if renamed,
    False if ``dest`` exists; None where the system has no such rename. os.rename would replace an empty folder, and
    a process making something in that folder at the moment then fails with ENOENT."""
    function = _renameat2_function()
    if function is None:
        return None
    if function(_AT_FDCWD, os.fsencode(source), _AT_FDCWD, os.fsencode(dest), _RENAME_NOREPLACE) == 0:
        return True
    import ctypes

    code = ctypes.get_errno()
    if code == errno.EEXIST:
        return False
    if code in (errno.EINVAL, errno.ENOSYS):  # (a file system or kernel without the flag)
        return None
    raise OSError(code, os.strerror(code), dest)


def _renameat2_function():
    """libc's renameat2, looked up once; None where there is none."""
    if not _renameat2:
        try:
            import ctypes

            function = ctypes.CDLL(None, use_errno=True).renameat2
            function.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
        except (OSError, AttributeError):
            function = None
        _renameat2.append(function)
    return _renameat2[0]


def stage(folder: str) -> str:
    """A private folder inside ``folder`` to build a version in; readers skip names starting with '.'."""
    os.makedirs(folder, exist_ok=True)
    clean_stale(folder)
    return tempfile.mkdtemp(dir=folder, prefix=f".staging-{os.getpid()}-")


def clean_stale(folder: str) -> list[str]:
    """Remove what dead writers left in ``folder`` (their pid no longer runs); return the names removed."""
    removed = []
    try:
        names = os.listdir(folder)
    except OSError:
        return removed
    for name in names:
        match = _WRITER.fullmatch(name)
        if match is None or _alive(int(match["pid"] or match["spid"])):
            continue
        path = os.path.join(folder, name)
        if os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path, ignore_errors=True)
        else:
            _remove(path)
        removed.append(name)
    return removed


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # EPERM: it runs, as another user
        return True
    return True


def claim_version(folder: str, staging: str, first: int, fill) -> int:
    """Rename ``staging`` to ``folder/<n>`` for the first free n >= ``first``; ``fill(staging, n)`` writes the
    version's record before each try. Renaming is atomic and fails on a taken version, so concurrent
    registrations from several processes all succeed, with distinct versions."""
    version = first
    while True:
        fill(staging, version)
        try:
            os.rename(staging, os.path.join(folder, str(version)))
            return version
        except OSError as err:
            if err.errno not in (errno.EEXIST, errno.ENOTEMPTY):
                shutil.rmtree(staging, ignore_errors=True)
                raise
            version += 1


def _held(path: str) -> int | None:
    """A descriptor keeping ``path``'s file (whatever it is now: never blocking on a FIFO) after its name goes; None
    where it cannot be opened (then removing the name frees it at once)."""
    try:
        return os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None


def _remove(path: str) -> None:
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass
