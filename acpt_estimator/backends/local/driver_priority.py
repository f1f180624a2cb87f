"""The driver's own threads yield to the job and to the user's code: SCHED_BATCH, so their wake-ups never preempt.

Why: a job's watcher and the driver's event thread wake up while the job's processes start and end (the launcher's
report, each rank's exit marker, the launcher's exit). Under SCHED_OTHER a woken thread preempts whatever runs on its
CPU: on a small machine the launcher, a rank, or the thread that submitted. SCHED_BATCH changes only that (the same
share of the CPU; an idle CPU runs it at once). The spawn server does the same in C (cgroup_spawn.c). Only a thread
at SCHED_OTHER is moved (a driver started under `chrt --idle` keeps its policy), and only threads that start none of
the job's processes (a process inherits its starter's policy; the job runs as under a plain mpiexec).
"""

from __future__ import annotations

import os
import threading

_moved = threading.local()  # .done: yield_to_jobs() moved this thread


def yield_to_jobs() -> None:
    """Move the calling thread (one of the driver's own, never the user's) from SCHED_OTHER to SCHED_BATCH."""
    if _set_policy(os.SCHED_OTHER, "SCHED_BATCH"):
        _moved.done = True


def stop_yielding() -> None:
    """Back to SCHED_OTHER, where yield_to_jobs() moved the calling thread: it is about to start a job's process."""
    if getattr(_moved, "done", False) and _set_policy(os.SCHED_BATCH, "SCHED_OTHER"):
        _moved.done = False


def _set_policy(current: int, new: str) -> bool:
    try:
        if os.sched_getscheduler(0) != current:
            return False
        os.sched_setscheduler(threading.get_native_id(), getattr(os, new), os.sched_param(0))
        return True
    except (AttributeError, OSError):  # not Linux, or not allowed here: the thread keeps its policy
        return False
