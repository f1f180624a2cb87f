"""One thread per driver that serves every running job's request FIFO (epoll), instead of a thread per job."""

from __future__ import annotations

import logging
import os
import select
import threading

# Why one shared thread: a thread per job cost its start before the job's gate could open and its join after the
# job ended (the join alone about 0.6 ms of a trivial job: waking the thread and handing it the GIL).
logger = logging.getLogger(__name__)
_lock = threading.Lock()
_service: "_Service | None" = None


class _Service:
    def __init__(self):
        self.pid = os.getpid()
        self._epoll = select.epoll()
        self._handlers: dict = {}  # fd -> callable(), called on this service's thread when fd is readable
        threading.Thread(target=self._serve, name="acpt-store-grants", daemon=True).start()

    def add(self, fd: int, handler) -> None:
        self._handlers[fd] = handler
        self._epoll.register(fd, select.EPOLLIN)

    def remove(self, fd: int) -> None:
        # epoll_ctl from another thread is safe while _serve waits in epoll_wait.
        self._handlers.pop(fd, None)
        self._epoll.unregister(fd)

    def _serve(self) -> None:
        while True:
            for fd, _ in self._epoll.poll():
                handler = self._handlers.get(fd)
                if handler is None:  # removed meanwhile: its owner drained it itself
                    continue
                try:
                    handler()
                except Exception:  # noqa: BLE001 - one job's failed request must not end the service for all
                    logger.exception("Serving a local job's store request failed")


def register(fd: int, handler) -> None:
    """Call ``handler()`` on the service's thread whenever ``fd`` (a non-blocking FIFO opened for reading and
    writing) has data, until ``unregister(fd)``. The thread is started by the first call, so it has the
    capabilities of the thread that made it (not those of a job's watcher thread, which dropped some)."""
    global _service
    with _lock:
        if _service is None or _service.pid != os.getpid():  # (a forked driver has no copy of the thread)
            _service = _Service()
        _service.add(fd, handler)


def unregister(fd: int) -> None:
    """No more calls for ``fd`` start after this returns (one running may still finish: the caller's lock decides)."""
    with _lock:
        if _service is not None and _service.pid == os.getpid():
            _service.remove(fd)
