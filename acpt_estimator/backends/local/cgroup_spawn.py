"""The launcher born inside its job's cgroup (clone3 CLONE_INTO_CGROUP), by a small C helper built once per machine.

Moving a running process into a cgroup waits for an RCU grace period in the kernel: 6-13 ms here, longer while
processes are being started, which is exactly when a job starts. Python's posix_spawn cannot start a process inside
a cgroup (glibc's POSIX_SPAWN_SETCGROUP arrives in 2.39), so ``cgroup_spawn.c`` does it: it clones the launcher into
the cgroup as a sibling of itself (CLONE_PARENT, so the driver is its parent and waits for it) and exits. The helper
is compiled from the package's source with the machine's C compiler into the cache folder (once; a background
thread does it on a driver's first job). Where there is no compiler, or the kernel lacks clone3 (Linux < 5.7), jobs
start as before: moved in after their start, their ranks held until they are inside. With ``job_namespace`` the
helper also makes the job's mount namespace, without CAP_SYS_ADMIN and CAP_SYS_PTRACE for what it starts, and sends
a descriptor of it with its report (Spawning.namespace), by which the driver makes the job's binds there.
"""

from __future__ import annotations

import errno
import logging
import os
import signal
import socket

from .native import NativeHelper

DISABLE_VAR = "ACPT_ESTIMATOR_CGROUP_SPAWN"  # "0": never use the helper (then jobs are moved in after their start)
logger = logging.getLogger(__name__)
_HELPER = NativeHelper("acpt-cgroup-spawn", "cgroup_spawn.c", DISABLE_VAR)
_state = _HELPER.state
ready, build = _HELPER.ready, _HELPER.build


def unusable(why: str) -> None:
    """The kernel refused the helper's clone3 (too old, or no cgroup v2 here): later jobs start as before."""
    logger.debug("Starting jobs inside their cgroup is not possible here (%s); they are moved in after their start.",
                 why)
    _HELPER.unusable()


class NamespaceRefused(OSError):
    """The helper could not make the job's mount namespace (``where``: unshare, private or capabilities)."""

    def __init__(self, where: str, code: int):
        super().__init__(code, os.strerror(code))
        self.where = where


class Spawning:
    """The helper started and starting the command: ``finish()`` waits (without the GIL) for its report."""

    def __init__(self, helper_pid: int, report: socket.socket, command: str, job_namespace: bool):
        self.helper_pid, self._report, self._command, self._job_namespace = helper_pid, report, command, job_namespace
        self.namespace: int | None = None  # with job_namespace: a descriptor of the command's namespace (caller's)

    def finish(self) -> int | None:
        """The command's pid (a child of this process); None when the helper could not start it here (then nothing
        was started). Raises OSError as posix_spawn would when the command cannot be executed, NamespaceRefused
        when the job's namespace could not be made. With a job namespace, ``namespace`` is then a descriptor of it,
        which the caller closes."""
        chunks, received = [], []
        try:
            while True:
                chunk, descriptors, _, _ = socket.recv_fds(self._report, 256, 1)
                received.extend(descriptors)
                if not chunk:
                    break
                chunks.append(chunk)
        finally:
            self._report.close()
            os.waitpid(self.helper_pid, 0)
        words = b"".join(chunks).decode("ascii", "replace").split()
        if len(words) == 1 and words[0].isdigit() and len(received) == int(self._job_namespace):
            self.namespace = received[0] if received else None
            return int(words[0])
        for descriptor in received:
            os.close(descriptor)
        if len(words) == 1 and words[0].isdigit():  # started, but its namespace did not come: it must not run
            os.kill(int(words[0]), signal.SIGKILL)
            os.waitpid(int(words[0]), 0)
            raise NamespaceRefused("private", errno.EPROTO)
        if len(words) == 4 and words[:2] == ["error", "exec"]:
            os.waitpid(int(words[3]), 0)  # the command's process, which could not execute it: our child, reaped here
            code = int(words[2])
            raise OSError(code, os.strerror(code), self._command)
        if len(words) == 3 and words[0] == "error" and words[1] in _NAMESPACE_STEPS and words[2].isdigit():
            raise NamespaceRefused(words[1], int(words[2]))
        unusable(" ".join(words) or "the helper reported nothing")
        return None


_NAMESPACE_STEPS = ("unshare", "private", "capabilities")


def start(helper: str, cgroup_dir: str, argv, env, file_actions, job_namespace: bool = False) -> Spawning | None:
    """Have the helper start ``argv`` inside ``cgroup_dir`` in a new session, with ``file_actions`` for its
    descriptors 0-2 (and, with ``job_namespace``, in a mount namespace of its own without CAP_SYS_ADMIN and
    CAP_SYS_PTRACE); None when the helper itself did not start (then the caller spawns the usual way)."""
    # Both ends close-on-exec; the helper gets its end as descriptor 3. A socket, so the namespace's descriptor can
    # come along with the report.
    report, helper_end = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    flags = ["--job-namespace"] if job_namespace else []
    try:
        helper_pid = os.posix_spawn(helper, [helper, *flags, cgroup_dir, *argv], env,
                                    file_actions=[*file_actions, (os.POSIX_SPAWN_DUP2, helper_end.fileno(), 3)])
    except OSError as err:
        report.close()
        unusable(f"the helper did not start: {err}")
        return None
    finally:
        helper_end.close()
    return Spawning(helper_pid, report, argv[0], job_namespace)


def spawn(helper: str, cgroup_dir: str, argv, env, file_actions, on_spawned=None) -> int | None:
    """start() and finish() in one: the pid, or None (see both). ``on_spawned`` is called once the helper runs,
    before this waits for its report."""
    spawning = start(helper, cgroup_dir, argv, env, file_actions)
    if spawning is None:
        return None
    if on_spawned is not None:
        on_spawned()
    return spawning.finish()
