"""One thread per driver that serves every running job's folder events (inotify): store requests, rank exits."""

from __future__ import annotations

import logging
import os
import select
import threading

from . import driver_priority
from .inotify import IN_CREATE, IN_MOVED_TO, Inotify

# Why: a thread per job cost its start before the job's gate could open and its join after the job ended (the join
# alone about 0.6 ms of a trivial job), and a request FIFO in each run folder a mkdir, mkfifo, unlink and rmdir per
# job (0.1-0.3 ms each on a journaling file system). A watch costs two system calls and leaves nothing on disk. And
# one inotify instance for the driver, not one per job: closing an instance waits for the kernel's SRCU grace period
# (about 15 ms here), and a user may hold only 128 of them.
logger = logging.getLogger(__name__)
_lock = threading.Lock()
_service: "_Service | None" = None


class _Service:
    def __init__(self):
        self.pid = os.getpid()
        self._inotify = Inotify()
        self._handlers: dict = {}  # watch descriptor -> callable(name), called on this service's thread
        threading.Thread(target=self._serve, name="acpt-store-grants", daemon=True).start()

    def watch(self, folder: str, mask: int, handler) -> int:
        wd = self._inotify.watch(folder, mask)
        self._handlers[wd] = handler
        return wd

    def unwatch(self, wd: int) -> None:
        self._handlers.pop(wd, None)
        self._inotify.unwatch(wd)

    def _serve(self) -> None:
        driver_priority.yield_to_jobs()  # woken at each rank's exit: it waits for a CPU rather than preempt a rank
        poller = select.poll()
        poller.register(self._inotify.fd, select.POLLIN)
        while True:
            poller.poll()
            for wd, name in self._inotify.read():
                handler = self._handlers.get(wd)
                if handler is None or not name:  # unwatched meanwhile: its owner tidied up itself
                    continue
                try:
                    handler(name)
                except Exception:  # noqa: BLE001 - one job's failed request must not end the service for all
                    logger.exception("Serving a local job's folder event failed")


def watch_moves(folder: str, handler) -> int:
    """Call ``handler(name)`` on the service's thread for each file renamed into ``folder`` (not below it), until
    ``unwatch``. The thread is started by the first call, so it has the capabilities of the thread that made it (not
    those of a job's watcher thread, which dropped some). Raises OSError where inotify is unavailable."""
    return _watch(folder, IN_MOVED_TO, handler)


def watch_creations(folder: str, handler) -> int:
    """As watch_moves, for each file created in ``folder`` or renamed into it from elsewhere or within it (a rank's
    exit marker made ahead: rank_exec.c, adopt)."""
    return _watch(folder, IN_CREATE | IN_MOVED_TO, handler)


def _watch(folder: str, mask: int, handler) -> int:
    global _service
    with _lock:
        if _service is None or _service.pid != os.getpid():  # (a forked driver has no copy of the thread)
            _service = _Service()
        return _service.watch(folder, mask, handler)


def unwatch(wd: int) -> None:
    """No more calls for ``wd`` start after this returns (one running may still finish: the caller's lock decides)."""
    with _lock:
        if _service is not None and _service.pid == os.getpid():
            _service.unwatch(wd)
