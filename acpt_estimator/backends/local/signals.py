"""Ending processes: SIGTERM, a grace period, then SIGKILL until none is left (for cgroups and pid sets); their
/proc state and start time (which tells a reused pid)."""

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


def start_time(pid: int) -> int | None:
    """Field 22 of /proc/<pid>/stat: the process start time in clock ticks since boot."""
    info = proc_stat(pid)
    return None if info is None else info[2]


def proc_stat(pid: int):
    """(ppid, session id, start ticks, state) of ``pid`` from /proc, or None when it is gone."""
    # os.open/os.read rather than open(): a subreaper-tracked job reads every process's stat as it ends, and this
    # takes 0.7 ms where open() took 1.1 ms for 67 processes. One read: the kernel hands over the whole line.
    try:
        fd = os.open(f"/proc/{pid}/stat", os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        stat = os.read(fd, 4096)
    except OSError:
        return None
    finally:
        os.close(fd)
    fields = stat[stat.rfind(b")") + 2:].split()
    return int(fields[1]), int(fields[3]), int(fields[19]), fields[0]
