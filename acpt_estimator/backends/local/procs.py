"""Every process of a local job: a cgroup v2 per job where this process may make one, else a subreaper."""

from __future__ import annotations

import os
import threading

from . import cgroup_spawn, rank_exec
from .cgroup import CgroupTracker, driver_group, job_cgroups_usable, setpriv, start_probe
from .signals import own_start_time, proc_stat, read_proc, start_time, terminate

PR_SET_CHILD_SUBREAPER = 36
TRACKING_VAR = "ACPT_ESTIMATOR_PROCESS_TRACKING"  # "subreaper" forces the fallback (tests, odd kernels)


def pids_with_env(name: str, value: str, candidates=None) -> list[int]:
    """Pids (other than this process) whose initial environment holds ``name=value``: the job's marker, which
    the subreaper fallback and a reopened run use too (a process may shed it; a cgroup it cannot). ``candidates``:
    the pids worth reading (default: every process)."""
    needle = f"{name}={value}".encode()
    me = os.getpid()
    found = []
    for entry in os.listdir("/proc") if candidates is None else map(str, candidates):
        if not entry.isdigit() or int(entry) == me:
            continue
        environ = read_proc(f"/proc/{entry}/environ")
        if environ is not None and needle in environ and needle in environ.split(b"\0") and not _is_zombie(entry):
            found.append(int(entry))
    return found


def _is_zombie(pid: str) -> bool:
    info = proc_stat(int(pid))
    return info is None or info[3] in (b"Z", b"X")


def job_pids(run_id: str) -> list[int]:
    """Live processes of a local job (and of local jobs started from inside it)."""
    from .launch import marker

    return pids_with_env(*marker(run_id))


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


PR_GET_CHILD_SUBREAPER = 37
# Every child this driver starts (with the inherited environment) carries DRIVER_VAR=<its pid>; job processes get an
# environment built from os.environ, which putenv leaves alone, so they never do. Orphans re-parented to the
# driver are the job's only if they do not carry it: the driver's own helpers (start_new_session=True) are not.
DRIVER_VAR = "ACPT_ESTIMATOR_DRIVER"
_subreaper_lock = threading.Lock()
_subreaper_users = 0
_subreaper_before: int | None = None  # the flag as the driver had it, restored when the last job ends
_roots: set = set()  # the launchers this driver started: its own children, never orphans of a job


def _prctl(option: int, value) -> int:
    import ctypes  # only the subreaper fallback needs it: not imported on the cgroup path

    libc = ctypes.CDLL(None, use_errno=True)
    return libc.prctl(option, value, 0, 0, 0)


def _become_subreaper() -> bool:
    """Make this driver a child subreaper for the job (counted: restored by _leave_subreaper after the last)."""
    global _subreaper_users, _subreaper_before
    with _subreaper_lock:
        os.putenv(DRIVER_VAR, str(os.getpid()))
        try:
            if _subreaper_users == 0:
                import ctypes

                before = ctypes.c_int(0)
                _prctl(PR_GET_CHILD_SUBREAPER, ctypes.byref(before))
                if _prctl(PR_SET_CHILD_SUBREAPER, 1) != 0:
                    return False
                _subreaper_before = before.value
            _subreaper_users += 1
            return True
        except (OSError, AttributeError):
            return False


def _leave_subreaper() -> None:
    global _subreaper_users
    with _subreaper_lock:
        _subreaper_users -= 1
        if _subreaper_users == 0 and _subreaper_before is not None:
            try:
                _prctl(PR_SET_CHILD_SUBREAPER, _subreaper_before)
            except (OSError, AttributeError):
                pass


def _drivers_own(pid: int) -> bool:
    """Whether ``pid`` was started by this driver itself (it inherited DRIVER_VAR=<this pid>)."""
    try:
        with open(f"/proc/{pid}/environ", "rb") as handle:
            return f"{DRIVER_VAR}={os.getpid()}".encode() in handle.read().split(b"\0")
    except OSError:
        return False


class SubreaperTracker:
    """The launcher's descendants, plus orphans re-parented to this (subreaper) driver since the job started.

    The fallback where no cgroup can be made: MPICH's hydra starts each rank in a session of its own, and a
    daemon can shed any inherited marker (``setsid env -i``), but as a child subreaper (PR_SET_CHILD_SUBREAPER)
    the driver inherits the orphans of its jobs instead of init.

    An orphan counts when it left the driver's session (ranks run in sessions of their own) and started
    after the job did; with several jobs running in one driver, an orphan that shed its marker is counted
    for each of them. Orphans that ended are reaped here, since nobody else waits for them.
    """

    kind = "subreaper"
    made = True  # (no cgroup to make: CgroupTracker.made)
    release_after_done = False  # the driver stops being a subreaper before its code goes on (its own children)

    def __init__(self, run_id: str):
        from .launch import marker

        self.run_id, self.marker = run_id, marker(run_id)
        self.root = None
        self.since = None
        self._orphans: set = set()  # (pid, start ticks) seen alive as orphans of the job: the only ones reaped
        self.subreaper = _become_subreaper()

    def describe(self) -> dict:
        return {"kind": self.kind, "root": self.root, "driver": os.getpid()}

    def launch_prefix(self) -> list:
        """``setpriv --pdeathsig TERM --``: mpiexec ends the ranks when the thread that started it ends."""
        tool = setpriv()
        return [tool, "--pdeathsig", "TERM", "--"] if tool else []

    def birth_cgroup(self) -> None:
        return None  # no cgroup of its own: started by posix_spawn

    def started(self, pid: int, born_inside: bool = False) -> None:
        self.root = pid
        self.since = (proc_stat(pid) or (0, 0, 0, b""))[2]
        _roots.add(pid)

    def pids(self) -> list[int]:
        me, my_session = os.getpid(), os.getsid(0)
        table = {}
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                info = proc_stat(int(entry))
                if info is not None:
                    table[int(entry)] = info
        children: dict = {}
        for pid, (ppid, _, _, _) in table.items():
            children.setdefault(ppid, []).append(pid)
        seeds = [self.root] if self.root else []
        for pid in children.get(me, []):
            ppid, session, started, state = table[pid]
            if pid in _roots or session == my_session or self.since is None or started < self.since:
                continue
            if state in (b"Z", b"X"):
                if (pid, started) in self._orphans:
                    seeds.append(pid)  # an orphan of the job that ended: reaped below, nobody else waits for it
            elif not _drivers_own(pid):
                seeds.append(pid)  # an orphan of the job, re-parented to this driver
                self._orphans.add((pid, started))
        found, stack = set(), list(seeds)
        while stack:
            pid = stack.pop()
            if pid in found or pid not in table:
                continue
            found.add(pid)
            stack += children.get(pid, [])
        # The marker is in a process's initial environment: only processes started since the launcher can hold it.
        since = self.since
        found |= set(pids_with_env(*self.marker, candidates=[
            pid for pid, (_, _, started, _) in table.items() if since is None or started >= since]))
        live = []
        for pid in found:
            if table.get(pid, (0, 0, 0, b"Z"))[3] in (b"Z", b"X"):
                if table.get(pid, (0,))[0] == me and pid != self.root:
                    _reap(pid)
                continue
            live.append(pid)
        return live

    def end(self, grace: float) -> None:
        terminate(self.pids, grace)

    def release(self) -> None:
        _roots.discard(self.root)
        if self.subreaper:  # once per tracker, however often release() is called
            self.subreaper = False
            _leave_subreaper()


def _reap(pid: int) -> None:
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        pass


_prefetching: list = []


def prefetch() -> None:
    """Start, once per driver, what a first local job probes about tracking (cgroup support, then setpriv) on a
    thread. Both mostly wait for a short-lived process (the cgroup probe for the kernel's grace period, ~10 ms), so
    the waits overlap the first submission's imports and checks instead of following them. Where cgroups are
    usable, the driver's cgroup and its guardian are made here too, and the helper that starts launchers inside
    theirs is built, and the rank launcher (once per machine: cgroup_spawn, rank_exec)."""
    with _subreaper_lock:
        if _prefetching:
            return
        _prefetching.append(True)

    cgroups_wanted = os.environ.get(TRACKING_VAR) != "subreaper"
    if cgroups_wanted:
        start_probe()  # its shell, started here; the thread below reads its verdict

    def probe() -> None:
        try:
            base = job_cgroups_usable() if cgroups_wanted else None
            if base:
                # The driver's group and its guardian (a thread, a shell and setpriv: ~2 ms) too, which the first
                # job's cgroup needs before mpiexec can start (CgroupTracker.create).
                driver_group(base)
                cgroup_spawn.build()
            setpriv()
            rank_exec.build()
        except Exception:  # noqa: BLE001 - only an optimisation: the submission asks again
            pass

    # Not a daemon: a driver that fails its first submission and exits at once still lets the probe clean up.
    threading.Thread(target=probe, name="acpt-local-probe", daemon=False).start()


def new_tracker(run_id: str, defer: bool = False):
    """The job's process tracker: its own cgroup when possible, else the subreaper fallback. ``defer``: a cgroup the
    spawn server can make is made later (CgroupTracker.create)."""
    base = None if os.environ.get(TRACKING_VAR) == "subreaper" else job_cgroups_usable()
    if base is not None:
        try:
            return CgroupTracker.create(base, run_id, defer=defer)
        except OSError:
            pass
    return SubreaperTracker(run_id)


class _Leftovers:
    """A job seen from another process (its driver gone): what its record says, plus its marker."""

    def __init__(self, run_id: str, described: dict):
        from .launch import marker

        self.marker = marker(run_id)
        self.cgroup = CgroupTracker(described["path"]) if described.get("kind") == "cgroup" else None

    def pids(self) -> list[int]:
        if self.cgroup is not None and os.path.isdir(self.cgroup.path):
            return self.cgroup.pids()
        return pids_with_env(*self.marker)

    def end(self, grace: float) -> None:
        if self.cgroup is not None and os.path.isdir(self.cgroup.path):
            self.cgroup.end(grace)
            self.cgroup.release()
        else:
            terminate(lambda: pids_with_env(*self.marker), grace)


def tracker_from_record(run_id: str, described: dict | None) -> _Leftovers:
    return _Leftovers(run_id, described or {})
