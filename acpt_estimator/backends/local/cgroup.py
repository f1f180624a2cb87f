"""A cgroup v2 per local job: every process it starts stays inside, whatever it does to its session or environment."""

from __future__ import annotations

import contextlib
import os
import posixpath
import queue
import shutil
import subprocess
import threading
import time

from . import cgroup_spawn
from .signals import kill_all, read_proc, start_time, terminate, wait_exited

_PREFIX = "acpt-"
# One guardian per driver process, started with the first job: the kernel sends it SIGTERM when the driver
# dies (parent-death signal, so also on SIGKILL or the OOM killer), and it kills every job cgroup of that
# driver at once. Started once rather than per job, off the launch path (a shell and setpriv cost ~2 ms).
GUARDIAN_SCRIPT = ('trap \'echo 1 >"$0/cgroup.kill"; kill $! 2>/dev/null; '
                   'for i in 1 2 3 4 5 6 7 8 9 10; do rmdir "$0"/*/ 2>/dev/null; '
                   'rmdir "$0" 2>/dev/null || [ ! -d "$0" ] && break; sleep 0.1; done; '
                   'exit 0\' TERM\n'
                   'while :; do sleep 86400 & wait $!; done\n')


def _own_cgroup() -> str | None:
    """This process's cgroup v2 folder, when the unified hierarchy is mounted here; else None.

    Read once per process (a forked one reads its own): /proc/self/cgroup cost ~0.04 ms of every launch, before
    mpiexec's start. A driver moved to another cgroup later goes on making its jobs' cgroups in the driver group it
    made first (driver_group), which stays where it is. Where a cgroup lies is worked out from /proc/self/mountinfo
    once per cgroup name (a few hundred lines to parse otherwise).
    """
    pid = os.getpid()
    if _own.get("pid") != pid:
        _own.update(pid=pid, folder=_read_own_cgroup())
    return _own["folder"]


_own: dict = {}  # {"pid": the process that read it, "folder": _own_cgroup()'s answer}


def _read_own_cgroup() -> str | None:
    listing = read_proc("/proc/self/cgroup")  # (os.read: a third of open()'s cost)
    path = next((line[3:].decode("utf-8", "surrogateescape") for line in (listing or b"").splitlines()
                 if line.startswith(b"0::")), None)
    if path is None:
        return None
    if path not in _folders:
        try:
            with open("/proc/self/mountinfo", encoding="utf-8") as handle:
                mounts = [line.split() for line in handle]
        except OSError:
            return None
        _folders[path] = _folder_of(path, mounts)
    return _folders[path]


def _folder_of(path: str, mounts: list) -> str | None:
    for fields in mounts:
        separator = fields.index("-")
        if fields[separator + 1] == "cgroup2":
            root, mount_point = fields[3], fields[4]
            relative = os.path.relpath(path, root) if path.startswith(root) else None
            if relative is not None:
                folder = os.path.normpath(os.path.join(mount_point, relative))
                _named[folder] = path
                return folder
    return None


_folders: dict = {}  # cgroup name in /proc/self/cgroup -> its folder (or None: no cgroup2 mount shows it)
_named: dict = {}  # cgroup folder -> its name in /proc/<pid>/cgroup (relative to this cgroup namespace)


def proc_name(folder: str) -> str | None:
    """How /proc/<pid>/cgroup names ``folder`` (a job cgroup below the folder job_cgroups_usable() returned)."""
    bases = [base for base in list(_named) if folder == base or folder.startswith(base.rstrip(os.sep) + os.sep)]
    if not bases:
        return None
    base = max(bases, key=len)
    below = folder[len(base.rstrip(os.sep)) + 1:]  # (os.path.relpath costs ~30 Python calls on every launch)
    return posixpath.normpath(posixpath.join(_named[base], below.replace(os.sep, "/")))


_usable: dict = {}
_started_probes: dict = {}  # cgroup folder -> (probe folder, its shell): started by start_probe, not yet collected
_usable_lock = threading.Lock()  # two threads probing at once would collide on the probe's folder


def job_cgroups_usable() -> str | None:
    """The folder job cgroups are made in, if this process may create them and move processes in; probed once.

    Needs a writable cgroup v2 hierarchy (root in most containers with a private cgroup namespace, or a
    delegated subtree). Probing starts one shell once per driver process.
    """
    base = _own_cgroup()
    with _usable_lock:
        if base not in _usable:
            started = _started_probes.pop(base, None) or (_start_probe(base) if base else None)
            _usable[base] = base if started and _probe_verdict(*started) else None
        return _usable[base]


def start_probe() -> None:
    """Start the probe's shell now and return (~0.3 ms); job_cgroups_usable() reads its verdict. Its move into the
    probe cgroup waits ~10 ms for the kernel: started at once, that wait passes while the submission goes on, and no
    thread has to win the GIL from the submitting one to see it end. Where the spawn helper is built, nothing is
    started here: job_cgroups_usable() then asks the helper, which takes ~1 ms (_born_inside)."""
    base = _own_cgroup()
    if cgroup_spawn.ready() is not None:
        return
    with _usable_lock:
        if base and base not in _usable and base not in _started_probes:
            started = _start_probe(base)
            if started:
                _started_probes[base] = started


def _start_probe(base: str):
    """(the probe cgroup, its verdict): a process started inside it by the spawn helper where that is built (True,
    or None where the helper could not say), else a shell that moves itself in (its Popen, for _probe_verdict)."""
    probe = os.path.join(base, f"{_PREFIX}probe-{os.getpid()}")
    try:
        os.mkdir(probe)
    except OSError:
        return None
    born_inside = _born_inside(probe)
    if born_inside is not None:
        return probe, born_inside
    try:
        return probe, subprocess.Popen(["/bin/sh", "-c", 'echo $$ >"$0/cgroup.procs"', probe],
                                       stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError):
        _remove(probe, timeout=1.0)
        return None


def _born_inside(probe: str) -> bool | None:
    """Whether a process can be started inside ``probe`` (clone3 CLONE_INTO_CGROUP, by the spawn helper): the same
    permission the kernel checks for a move into it, without the move's wait for an RCU grace period (10-17 ms of a
    driver's first job here, the shell's way). None where the helper is not built or cannot clone here."""
    helper = cgroup_spawn.ready()
    if helper is None:
        return None
    devnull = [(os.POSIX_SPAWN_OPEN, fd, os.devnull, os.O_RDWR, 0) for fd in (0, 1, 2)]
    try:
        pid = cgroup_spawn.spawn(helper, probe, ["/bin/true"], {}, devnull)
    except OSError:  # refused by the kernel (or no /bin/true): the shell's way says which
        return None
    if pid is None:
        return None
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status) == 0


def _probe_verdict(probe: str, started) -> bool:
    try:
        if isinstance(started, bool):
            return started
        code = wait_exited(started, timeout=10)
        if code is None:
            started.kill()
            started.wait()
        return code == 0
    finally:
        _remove(probe, timeout=1.0)


_setpriv: list = []
_setpriv_lock = threading.Lock()


def setpriv() -> str | None:
    """util-linux's setpriv, if it can set a parent-death signal (``--pdeathsig``); looked up once."""
    with _setpriv_lock:
        return _find_setpriv()


def _find_setpriv() -> str | None:
    if not _setpriv:
        path, ok = shutil.which("setpriv"), False
        if path:
            try:
                ok = "--pdeathsig" in subprocess.run([path, "--help"], capture_output=True, text=True,
                                                     timeout=10).stdout
            except (OSError, subprocess.SubprocessError):
                ok = False
        _setpriv.append(path if ok else None)
    return _setpriv[0]


_driver_group: dict = {}
_guardians: dict = {}  # driver group -> the guardian's pid
_guardian_started: dict = {}  # guardian pid -> its start time (signals.start_time), to tell a reused pid
_errands: dict = {}  # driver group -> queue of calls for the thread that holds its guardian (see warm_up)
_group_lock = threading.Lock()


def driver_group(base: str) -> str:
    """``<base>/acpt-driver-<pid>``: this driver's job cgroups, and the guardian that kills them if it dies."""
    with _group_lock:
        if base not in _driver_group:
            path = os.path.join(base, f"{_PREFIX}driver-{os.getpid()}")
            os.makedirs(path, exist_ok=True)
            _start_guardian(path)
            _driver_group[base] = path
        return _driver_group[base]


def _start_guardian(group: str) -> None:
    tool = setpriv()
    if tool is None:
        return  # no parent-death signal here: a reopened run still ends what is left (recovery.settle)
    started = threading.Event()
    errands = _errands[group] = queue.SimpleQueue()

    def hold() -> None:
        # The parent-death signal fires when the *thread* that started a process ends: this thread never does.
        argv = [tool, "--pdeathsig", "TERM", "--", "/bin/sh", "-c", GUARDIAN_SCRIPT, group]
        try:
            _guardians[group] = os.posix_spawn(argv[0], argv, {"PATH": os.defpath}, setsid=True, file_actions=[
                (os.POSIX_SPAWN_OPEN, fd, os.devnull, os.O_RDWR, 0) for fd in (0, 1, 2)])
            _guardian_started[_guardians[group]] = start_time(_guardians[group])
        except OSError:
            pass
        finally:
            started.set()
        while True:  # idle otherwise: warm-ups, off the threads that prepare and launch jobs
            try:
                errands.get()()
            except BaseException:  # noqa: BLE001 - this thread must never end: the guardian would kill every job
                pass

    threading.Thread(target=hold, name="acpt-local-guardian", daemon=True).start()
    started.wait(10)


def warm_up(group: str) -> None:
    """Start the kernel's wait for the next move into a job cgroup now, on the guardian's thread; returns at once.

    Moving a process between cgroups takes the cgroup threadgroup lock, whose first taker waits for an RCU grace
    period (about 10 ms here); takers within about a grace period after that do not wait. Rewriting the guardian
    into the cgroup it is already in (the driver's) takes the lock and changes nothing. Asked right after the job's
    cgroup is made (the lock's holder also blocks mkdir there), it overlaps the rest of the preparation, and the
    launcher's own move right after its start waits only for what is left of it.
    """
    guardian, errands = _guardians.get(group), _errands.get(group)
    if guardian is not None and errands is not None:
        errands.put(lambda: _rewrite(os.path.dirname(group), guardian))


def _rewrite(base: str, pid: int) -> None:
    if start_time(pid) != _guardian_started.get(pid):  # ended and its pid reused: never move someone else
        return
    try:
        with open(os.path.join(base, "cgroup.procs"), "w", encoding="utf-8") as handle:
            handle.write(str(pid))  # spawned by this driver, so in the driver's cgroup already
    except OSError:  # gone: the launcher's move only costs the whole grace period then
        pass


class CgroupTracker:
    """The job's processes are the members of ``<driver group>/<run id>`` and of the cgroups below it."""

    kind = "cgroup"
    release_after_done = True  # removing the emptied cgroup changes nothing the driver's code sees (Supervisor)

    def __init__(self, path: str, made: bool = True):
        self.path = path
        self.proc_name = proc_name(path)  # what its members read in /proc/self/cgroup (rank.sh checks it)
        # False until the cgroup exists or the spawn server was asked to make it (Supervisor.prepare: make()).
        self.made = made
        # cgroup.events, kept open once the launcher is tracked (started): its read as the job ends is then one pread
        # instead of an open, two reads and a close (~0.03 ms of the end here).
        self._events: int | None = None
        self._events_lock = threading.Lock()

    @classmethod
    def create(cls, base: str, run_id: str, defer: bool = False) -> "CgroupTracker":
        """The job's cgroup, made now; with ``defer``, where the launcher will start inside it (cgroup_spawn), only
        named: the spawn server makes it while the driver plans the launch, or make() does (Supervisor.prepare)."""
        group = driver_group(base)
        path = os.path.join(group, run_id)
        if defer and cgroup_spawn.ready() is not None:
            return cls(path, made=False)
        os.mkdir(path)
        if cgroup_spawn.ready() is None:  # the launcher will be moved in after its start
            warm_up(group)
        return cls(path)

    def make(self) -> None:
        """Make the cgroup that create(defer=True) only named, where it does not exist yet: also where the spawn
        server was asked to and could not, or its answer is not known (Supervisor's fallbacks)."""
        with contextlib.suppress(FileExistsError):  # (made by the server after all)
            os.mkdir(self.path)
        self.made = True

    def describe(self) -> dict:
        return {"kind": self.kind, "path": self.path}

    def launch_prefix(self) -> list:
        return []  # the guardian of the driver group stands in for a parent-death signal per job

    def birth_cgroup(self) -> str:
        """Where the launcher is started, where that is possible (cgroup_spawn)."""
        return self.path

    def started(self, pid: int, born_inside: bool = False) -> None:
        """Move the launcher in (unless it was ``born_inside``), and anything it forked meanwhile: from then on every
        process it makes is born inside. The first move waits for an RCU grace period in the kernel (6-13 ms: the
        cgroup threadgroup lock's first writer); the launcher starts its proxy meanwhile, and its ranks wait at the
        run's gate until this is done (gate.Gate, launch.render_gate), so no process of the user's starts outside."""
        pending = [] if born_inside else [pid]
        while pending:
            current = pending.pop()
            try:
                with open(os.path.join(self.path, "cgroup.procs"), "w", encoding="utf-8") as handle:
                    handle.write(str(current))
            except ProcessLookupError:  # already gone (a launcher that fails at once): nothing left to track
                continue
            pending += _children(current)
        with self._events_lock:
            if self._events is None:
                with contextlib.suppress(OSError):  # (then read whole each time: _populated)
                    self._events = os.open(os.path.join(self.path, "cgroup.events"), os.O_RDONLY | os.O_CLOEXEC)

    def pids(self) -> list[int]:
        if not self._populated():
            return []
        found = []
        for folder, _, _ in os.walk(self.path):  # jobs started inside the job have their cgroup below ours
            try:
                with open(os.path.join(folder, "cgroup.procs"), encoding="utf-8") as handle:
                    found += [int(line) for line in handle if line.strip()]
            except OSError:
                continue
        return found

    def _populated(self) -> bool:
        """Whether any process is in the cgroup or below it (one small read; the walk lists every cgroup file)."""
        events = None
        with self._events_lock:
            if self._events is not None:
                with contextlib.suppress(OSError):
                    events = os.pread(self._events, 4096, 0)  # (its last read ends a job: kept short)
        if events is None:
            events = read_proc(os.path.join(self.path, "cgroup.events"))
        return events is None or b"populated 0" not in events  # unknown: walk

    def end(self, grace: float) -> None:
        """SIGTERM every member, then kill the whole cgroup after ``grace`` seconds."""
        terminate(self.pids, grace, self.kill)

    def kill(self) -> None:
        try:
            with open(os.path.join(self.path, "cgroup.kill"), "w", encoding="utf-8") as handle:
                handle.write("1")  # atomic, recursive, and no process can fork its way out of it
        except OSError:  # kernels before 5.14 have no cgroup.kill
            kill_all(self.pids)

    def release(self) -> None:
        with self._events_lock:
            if self._events is not None:
                os.close(self._events)
                self._events = None
        _remove(self.path, timeout=2.0)


def _children(pid: int) -> list[int]:
    found = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for task in tasks:
        try:
            with open(f"/proc/{pid}/task/{task}/children", encoding="utf-8") as handle:
                found += [int(child) for child in handle.read().split()]
        except OSError:
            continue
    return found


def _remove(path: str, timeout: float) -> None:
    """rmdir the cgroup and the ones below it; a cgroup is removable once its last member is reaped."""
    with contextlib.suppress(OSError):  # the usual case: no cgroup below it (the walk costs ~0.1 ms of kernfs)
        os.rmdir(path)
        return
    deadline = time.monotonic() + timeout
    while True:
        try:
            for folder, _, _ in sorted(os.walk(path), key=lambda entry: -len(entry[0])):
                os.rmdir(folder)
            return
        except FileNotFoundError:
            return
        except OSError:
            if time.monotonic() >= deadline:
                return
            time.sleep(0.01)
