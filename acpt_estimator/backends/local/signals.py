"""Ending processes: SIGTERM, a grace period, then SIGKILL until none is left (for cgroups and pid sets)."""

from __future__ import annotations

import os
import signal
import time


def signal_all(pids, sig: int) -> None:
    for pid in pids:
        try:
            os.kill(pid, sig)
        except (ProcessLookupError, PermissionError):
            pass


def terminate(find, grace: float, kill=None) -> None:
    """SIGTERM whatever ``find()`` lists, so scripts can clean up; after ``grace`` seconds, ``kill()``.

    ``kill`` defaults to SIGKILL until ``find()`` is empty, which also catches a process forked meanwhile.
    """
    signal_all(find(), signal.SIGTERM)
    deadline = time.monotonic() + grace
    while time.monotonic() < deadline and find():
        time.sleep(0.02)
    (kill or (lambda: kill_all(find)))()


def kill_all(find) -> None:
    for _ in range(50):
        left = find()
        if not left:
            return
        signal_all(left, signal.SIGKILL)
        time.sleep(0.02)
