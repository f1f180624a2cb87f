"""A run's gate: its ranks' shells wait there until the run is prepared and every process of the job is tracked."""

from __future__ import annotations

import contextlib
import os
import threading

from .launch import GATE_NAME, READY_NAME


class Gate:
    """Opens when each of ``parties`` has arrived: the thread preparing the run (snapshot, grants, record) and the
    supervisor once the tracker holds the launcher and all it started. Opening makes ``<run>/ready`` and writes a
    line per rank into the ``gate`` FIFO, which wakes the shells waiting in launch.render_gate.

    The FIFO stays open here until close(): a shell that opens it just after the lines were written still finds
    them (a FIFO no process holds open drops what was written to it). ``ready_file=False``: no ready file, the ranks
    (rank_exec.c) each take a line, which spares the file's creation and removal (~0.1-0.4 ms of a launch)."""

    def __init__(self, run_dir: str, ranks: int, parties: int = 2, ready_file: bool = True, make: bool = True,
                 fifo_made: bool = False):
        """``make=False``: the FIFO is made by make(), once the run folder exists (only for ranks that wait for it to
        appear: rank_exec.c). ``fifo_made``: it is there already (a spare run folder's), make() only opens it."""
        self.fifo = os.path.join(run_dir, GATE_NAME)
        self._fifo_made = fifo_made
        self.ready = os.path.join(run_dir, READY_NAME) if ready_file else None
        self._fd: int | None = None
        self._ranks, self._waiting = ranks, parties
        self._lock = threading.Lock()
        self._closed = False
        if make:
            self.make()

    def make(self) -> None:
        with self._lock:
            if self._closed:  # (the job ended first: nothing to open any more)
                return
            if not self._fifo_made:
                os.mkfifo(self.fifo, 0o600)
            self._fd = os.open(self.fifo, os.O_RDWR | os.O_NONBLOCK | os.O_CLOEXEC)

    def arrive(self) -> None:
        with self._lock:
            self._waiting -= 1
            if self._waiting or self._fd is None:
                return
            if self.ready is None:  # a line for every rank: the FIFO holds them (launch.gate_by_lines)
                os.write(self._fd, b"\n" * self._ranks)
                return
            os.close(os.open(self.ready, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600))
            with contextlib.suppress(BlockingIOError):  # a full FIFO: the shells still waiting see `ready` anyway
                os.write(self._fd, b"\n" * self._ranks)

    def close(self) -> None:
        with self._lock:
            self._closed = True
            if self._fd is not None:
                os.close(self._fd)
                self._fd = None
