"""A cgroup v2 per local job: every process it starts stays inside, whatever it does to its session or environment."""

from __future__ import annotations

import os
import subprocess
import time

# The launcher joins the job's cgroup before it execs mpiexec, so nothing of the job ever runs outside it.
# The driver's death (the parent-death signal, SIGUSR1) kills the whole cgroup: the job ends with its driver.
JOIN_SCRIPT = ('echo $$ >"$0/cgroup.procs" || exit 95\n'
               'trap \'echo 1 >"$0/cgroup.kill" 2>/dev/null || kill -9 $(cat "$0/cgroup.procs")\' USR1\n'
               '"$@" &\n'
               'wait $!\n')
EXIT_NO_CGROUP = 95
_PREFIX = "acpt-"


def _own_cgroup() -> str | None:
    """This process's cgroup v2 folder, when the unified hierarchy is mounted here; else None."""
    try:
        with open("/proc/self/cgroup", encoding="utf-8") as handle:
            path = next((line.strip()[3:] for line in handle if line.startswith("0::")), None)
        with open("/proc/self/mountinfo", encoding="utf-8") as handle:
            mounts = [line.split() for line in handle]
    except OSError:
        return None
    if path is None:
        return None
    for fields in mounts:
        separator = fields.index("-")
        if fields[separator + 1] == "cgroup2":
            root, mount_point = fields[3], fields[4]
            relative = os.path.relpath(path, root) if path.startswith(root) else None
            if relative is not None:
                return os.path.normpath(os.path.join(mount_point, relative))
    return None


_usable: dict = {}


def job_cgroups_usable() -> str | None:
    """The folder job cgroups are made in, if this process may create them and move processes in; probed once.

    Needs a writable cgroup v2 hierarchy (root in most containers with a private cgroup namespace, or a
    delegated subtree). Probing starts one shell once per driver process.
    """
    base = _own_cgroup()
    if base not in _usable:
        _usable[base] = base if base and _probe(base) else None
    return _usable[base]


def _probe(base: str) -> bool:
    probe = os.path.join(base, f"{_PREFIX}probe-{os.getpid()}")
    try:
        os.mkdir(probe)
    except OSError:
        return False
    try:
        done = subprocess.run(["/bin/sh", "-c", 'echo $$ >"$0/cgroup.procs"', probe], stdin=subprocess.DEVNULL,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=10)
        return done.returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False
    finally:
        _remove(probe, timeout=1.0)


class CgroupTracker:
    """The job's processes are the members of ``<own cgroup>/acpt-<run id>`` and of the cgroups below it."""

    kind = "cgroup"

    def __init__(self, path: str):
        self.path = path

    @classmethod
    def create(cls, base: str, run_id: str) -> "CgroupTracker":
        path = os.path.join(base, _PREFIX + run_id)
        os.mkdir(path)
        return cls(path)

    def describe(self) -> dict:
        return {"kind": self.kind, "path": self.path}

    def wrap(self, argv: list) -> list:
        return ["/bin/sh", "-c", JOIN_SCRIPT, self.path] + list(argv)

    def started(self, pid: int) -> None:
        pass

    def pids(self) -> list[int]:
        found = []
        for folder, _, _ in os.walk(self.path):  # jobs started inside the job have their cgroup below ours
            try:
                with open(os.path.join(folder, "cgroup.procs"), encoding="utf-8") as handle:
                    found += [int(line) for line in handle if line.strip()]
            except OSError:
                continue
        return found

    def end(self, grace: float) -> None:
        """SIGTERM every member, then kill the whole cgroup after ``grace`` seconds."""
        from .procs import terminate

        terminate(self.pids, grace, self.kill)

    def kill(self) -> None:
        from .procs import kill_all

        try:
            with open(os.path.join(self.path, "cgroup.kill"), "w", encoding="utf-8") as handle:
                handle.write("1")  # atomic, recursive, and no process can fork its way out of it
        except OSError:  # kernels before 5.14 have no cgroup.kill
            kill_all(self.pids)

    def release(self) -> None:
        _remove(self.path, timeout=2.0)


def _remove(path: str, timeout: float) -> None:
    """rmdir the cgroup and the ones below it; a cgroup is removable once its last member is reaped."""
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
