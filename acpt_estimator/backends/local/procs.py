"""Find and end every process of a job by the marker variable it inherited, via /proc (no psutil).

MPICH's hydra starts each rank in its own session, so killing mpiexec's process group does not reach the
ranks; the marker (``launch.marker(run_id)``) does, including anything the ranks spawned.
"""

from __future__ import annotations

import os
import signal
import time


def last_pid() -> int:
    """The pid the kernel handed out most recently (last field of /proc/loadavg)."""
    with open("/proc/loadavg", "rb") as handle:
        return int(handle.read().split()[-1])


def _in_window(pid: int, window) -> bool:
    """Whether ``pid`` was allocated in (first, last]; pids are handed out cyclically, so it may wrap."""
    if window is None:
        return True
    first, last = window
    return first < pid <= last if first <= last else (pid > first or pid <= last)


def pids_with_env(name: str, value: str, window=None) -> list[int]:
    """Pids (other than this process) whose initial environment holds ``name=value``.

    ``window=(first, last)`` looks only at pids allocated between two ``last_pid()`` readings: enough for
    a short job, whose processes were all created in between, and much cheaper than reading every process.
    """
    needle = f"{name}={value}".encode()
    me = os.getpid()
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == me or not _in_window(int(entry), window):
            continue
        # os.open/os.read rather than open(): this scan runs at the end of every job, on the launch path.
        try:
            fd = os.open(f"/proc/{entry}/environ", os.O_RDONLY)
        except OSError:  # gone, or not ours to read
            continue
        try:
            chunks = []
            while True:
                chunk = os.read(fd, 65536)
                if not chunk:
                    break
                chunks.append(chunk)
        except OSError:
            continue
        finally:
            os.close(fd)
        environ = b"".join(chunks)
        if needle in environ and needle in environ.split(b"\0") and not _is_zombie(entry):
            found.append(int(entry))
    return found


def _is_zombie(pid: str) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            stat = handle.read()
    except OSError:
        return True
    return stat[stat.rfind(b")") + 2:stat.rfind(b")") + 3] in (b"Z", b"X")


def job_pids(run_id: str) -> list[int]:
    """Live processes of a local job (and of local jobs started from inside it)."""
    from .launch import marker

    return pids_with_env(*marker(run_id))


def end_job(run_id: str, grace: float = 2.0, extra_pids=(), window=None) -> list[int]:
    from .launch import marker

    return end_marked(*marker(run_id), grace=grace, extra_pids=extra_pids, window=window)


def signal_all(pids, sig: int) -> None:
    for pid in pids:
        try:
            os.kill(pid, sig)
        except (ProcessLookupError, PermissionError):
            pass


def end_marked(name: str, value: str, grace: float = 2.0, extra_pids=(), window=None) -> list[int]:
    """SIGTERM every marked process (and ``extra_pids``), SIGKILL what is left after ``grace`` seconds.

    Returns the pids that were still alive at the first scan. Loops until none is left, so that a
    process forked while we were killing is caught too.
    """
    first = pids_with_env(name, value, window)
    targets = set(first) | set(extra_pids)
    if not targets:
        return first
    signal_all(targets, signal.SIGTERM)
    deadline = time.monotonic() + grace
    while time.monotonic() < deadline:
        if not pids_with_env(name, value) and not any(_alive(p) for p in extra_pids):
            return first
        time.sleep(0.02)
    for _ in range(50):
        left = pids_with_env(name, value) + [p for p in extra_pids if _alive(p)]
        if not left:
            break
        signal_all(left, signal.SIGKILL)
        time.sleep(0.02)
    return first


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return not _is_zombie(str(pid))


def process_alive(pid: int | None, start_ticks: int | None = None) -> bool:
    """Whether ``pid`` still runs; with ``start_ticks`` (from start_time) a recycled pid does not count."""
    if not pid or not _alive(pid):
        return False
    return start_ticks is None or start_time(pid) == start_ticks


def start_time(pid: int) -> int | None:
    """Field 22 of /proc/<pid>/stat: the process start time in clock ticks since boot."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            stat = handle.read()
    except OSError:
        return None
    fields = stat[stat.rfind(b")") + 2:].split()
    return int(fields[19])
