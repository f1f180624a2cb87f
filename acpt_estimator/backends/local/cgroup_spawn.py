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

A job's launcher is started by the driver's spawn server where it can be (launch()): the same helper in its --serve
mode, started once per driver and fed a request per job, which spares each launch a helper process (its start and
end cost ~0.4 ms of a trivial job here). A job asks it for the launcher's process first (prepare(): the job's cgroup
made, the process cloned into it, its namespace made), while the driver still plans the command line, and sends the
command when it has it (Waiting.go): the cgroup, the clone and the namespace then overlap the planning instead of
preceding or following it.
"""

from __future__ import annotations

import atexit
import contextlib
import errno
import logging
import os
import signal
import socket
import threading
import time

from .native import NativeHelper
from .signals import wait_pid

DISABLE_VAR = "ACPT_ESTIMATOR_CGROUP_SPAWN"  # "0": never use the helper (then jobs are moved in after their start)
SERVER_VAR = "ACPT_ESTIMATOR_SPAWN_SERVER"  # "0": a helper process per job instead of the driver's spawn server
# Ignored by Python, so by what it spawns: a launcher starts with them at their default, as from a shell (the helper
# does the same in C, default_signals).
DEFAULT_SIGNALS = (signal.SIGPIPE, signal.SIGXFSZ)
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


class CgroupNotMade(OSError):
    """The spawn server could not make the job's cgroup it was asked to (prepare(make_cgroup=True)): nothing ran."""

    def __init__(self, code: int):
        super().__init__(code, f"{os.strerror(code)} (making the job's cgroup)")


class Spawning:
    """The helper started and starting the command: ``finish()`` waits (without the GIL) for its report."""

    def __init__(self, helper_pid: int | None, report: socket.socket, command: str, job_namespace: bool):
        self.helper_pid, self._report, self._command, self._job_namespace = helper_pid, report, command, job_namespace
        self.namespace: int | None = None  # with job_namespace: a descriptor of the command's namespace (caller's)

    def finish(self) -> int | None:
        """The command's pid (a child of this process); None when the helper could not start it here (then nothing
        was started). Raises OSError as posix_spawn would when the command cannot be executed, NamespaceRefused
        when the job's namespace could not be made. With a job namespace, ``namespace`` is then a descriptor of it,
        which the caller closes."""
        try:
            text, received = _read_report(self._report)
        finally:
            self._report.close()
            if self.helper_pid is not None:  # (the spawn server's requests have no helper process of their own)
                os.waitpid(self.helper_pid, 0)
        words = text.split()
        if len(words) == 5 and words[0].isdigit() and words[1:3] == ["error", "exec"]:
            words = words[1:]  # the command's process reports its pid before it executes the command, then why not
        if len(words) == 4 and words[0] == "error" and words[1] in _NAMESPACE_STEPS and words[3].isdigit():
            os.waitpid(int(words[3]), 0)  # the process that could not make the namespace: our child, reaped here
            words = words[:3]
        if len(words) == 4 and words[:2] == ["error", "policy"] and words[3].isdigit():
            os.waitpid(int(words[3]), 0)  # could not get SCHED_OTHER back (the server probed it could): not run
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
        if len(words) == 3 and words[:2] == ["error", "mkdir"] and words[2].isdigit():
            raise CgroupNotMade(int(words[2]))  # (the helper works: only this job's cgroup could not be made)
        unusable(" ".join(words) or "the helper reported nothing")
        return None


_NAMESPACE_STEPS = ("unshare", "private", "capabilities")


def _read_report(report: socket.socket) -> tuple[str, list]:
    """A report socket's text and the descriptors that came with it, until its end. A peer that closed with what we
    sent it unread (a launcher made ahead whose clone failed before our command arrived) ends it with ECONNRESET
    once what it wrote has been read: the end as well."""
    chunks, received = [], []
    while True:
        try:
            chunk, descriptors, _, _ = socket.recv_fds(report, 256, 1)
        except ConnectionResetError:
            break
        received.extend(descriptors)
        if not chunk:
            break
        chunks.append(chunk)
    return b"".join(chunks).decode("ascii", "replace"), received


def file_actions(log_path: str) -> list:
    """A launcher's descriptors 0-2: nothing to read, its own output appended to ``log_path``."""
    return [(os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
            (os.POSIX_SPAWN_OPEN, 1, log_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644),
            (os.POSIX_SPAWN_DUP2, 1, 2)]


class Waiting:
    """A job's launcher process made ahead of its command line by the spawn server (prepare()): already inside its
    cgroup and, with ``job_namespace``, its mount namespace, waiting for go() (or cancel())."""

    def __init__(self, report: socket.socket, job_namespace: bool):
        self._report, self.job_namespace = report, job_namespace

    def go(self, argv, env, log_path: str) -> Spawning | None:
        """The command for the waiting process: executed there, its output appended to ``log_path``; the launch to
        finish() as launch()'s. None where it cannot be sent (a NUL in an argument or variable, the process gone):
        the waiting process is then ended and reaped, and the caller launches the usual way."""
        data, output = _command(argv, env), _open_log(log_path)
        if data is None or output is None:
            if output is not None:
                os.close(output)
            self.cancel()
            return None
        try:
            # A stream: the descriptor rides with the first part, the rest follows however large the environment.
            sent = socket.send_fds(self._report, [data], [output])
            if sent < len(data):
                self._report.sendall(data[sent:])
            self._report.shutdown(socket.SHUT_WR)
        except OSError:
            self.cancel()
            return None
        finally:
            os.close(output)
        report, self._report = self._report, None  # the launch's from now on: cancel() no longer touches it
        return Spawning(None, report, argv[0], self.job_namespace)

    def cancel(self) -> None:
        """End the waiting process without running anything there (it exits at the end of what it reads) and reap
        it; idempotent, and nothing once go() has sent the command."""
        report, self._report = self._report, None
        if report is None:
            return
        try:
            with contextlib.suppress(OSError):
                report.shutdown(socket.SHUT_WR)
            text, received = _read_report(report)
        except OSError:
            text, received = "", []
        finally:
            report.close()
        for descriptor in received:
            os.close(descriptor)
        words = text.split()
        pid = words[0] if words and words[0].isdigit() else (words[-1] if len(words) == 4 else "")
        if pid.isdigit():  # our child (the server clones it as its sibling)
            with contextlib.suppress(ChildProcessError):
                os.waitpid(int(pid), 0)


def _command(argv, env) -> bytes | None:
    """A command as the helper reads it (cgroup_spawn.c, command_fields): the number of arguments, the arguments and
    the environment (NAME=value), each NUL-terminated; None where one holds a NUL (no such request can carry it)."""
    fields = [str(len(argv)), *map(os.fsdecode, argv), *map("=".join, env.items())]
    text = "\0".join(fields)
    if text.count("\0") != len(fields) - 1:  # (one encoding of the whole: ~50 calls fewer as mpiexec is started)
        return None
    return os.fsencode(text) + b"\0"


def _open_log(log_path: str) -> int | None:
    """The launcher's log, opened for appending (its descriptors 1 and 2); None where it cannot be."""
    try:
        return os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_CLOEXEC, 0o644)
    except OSError:
        return None


def prepare(helper: str, cgroup_dir: str, job_namespace: bool = False, keep_batch: bool = False,
            make_cgroup: bool = False) -> Waiting | None:
    """A launcher process made now, inside ``cgroup_dir``, by this driver's spawn server, to be given its command by
    Waiting.go() once it is planned: the clone (and the namespace) happen meanwhile. None where there is no server
    (then launch() starts it the usual way). ``keep_batch``: see launch(). ``make_cgroup``: the server makes
    ``cgroup_dir`` first (it must not exist); where it cannot, the launch's finish() raises CgroupNotMade."""
    if os.environ.get(SERVER_VAR) == "0":
        return None
    server = _server(helper)
    return server.prepare(cgroup_dir, job_namespace, keep_batch, make_cgroup) if server is not None else None


def launch(helper: str, cgroup_dir: str, argv, env, log_path: str, job_namespace: bool = False,
           keep_batch: bool = False) -> Spawning | None:
    """start() for a job's launcher, its output appended to ``log_path``: through this driver's spawn server where
    it runs, else by a helper process of its own. ``keep_batch``: the launcher keeps the server's SCHED_BATCH (where
    the server moved itself there) instead of the driver's policy; only for a launcher whose ranks start through the
    C rank launcher, which gives each rank's command the driver's policy back (rank_exec.c says why)."""
    if os.environ.get(SERVER_VAR) != "0":
        server = _server(helper)
        spawning = (server.request(cgroup_dir, argv, env, log_path, job_namespace, keep_batch)
                    if server is not None else None)
        if spawning is not None:
            return spawning
    return start(helper, cgroup_dir, argv, env, file_actions(log_path), job_namespace)


class _Server:
    """The helper in its --serve mode: a child of this driver, in a session of its own, that clones each launcher
    it is asked for into its cgroup as its sibling (so a child of this driver too). It ends when this driver closes
    its end of the channel, at the latest when the driver exits."""

    def __init__(self, helper: str):
        self.helper, self.owner = helper, os.getpid()
        # The driver's CPUs: each clone gets them back (cgroup_spawn.c), so the server may be narrowed to the CPUs
        # other than a requesting thread's (_off_this_cpu); none is where the list could not be given.
        cpus = os.sched_getaffinity(0)
        self.cpus = cpus if max(cpus) < 1024 else set()  # (glibc's cpu_set_t)
        self._narrowed_off = None  # the CPU the server was last kept off (_off_this_cpu)
        self.channel, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        given = [",".join(map(str, sorted(self.cpus)))] if self.cpus else []
        try:
            self.pid = os.posix_spawn(helper, [helper, "--serve", *given], {}, setsid=True, file_actions=[
                *((os.POSIX_SPAWN_OPEN, fd, os.devnull, os.O_RDWR, 0) for fd in (0, 1, 2)),
                (os.POSIX_SPAWN_DUP2, theirs.fileno(), 3)])
        except BaseException:
            self.channel.close()
            raise
        finally:
            theirs.close()

    def request(self, cgroup_dir: str, argv, env, log_path: str, job_namespace: bool,
                keep_batch: bool = False) -> Spawning | None:
        """The launch as a request (its report read by Spawning.finish); None where the server cannot take it: a
        NUL in an argument or variable, a request larger than the channel carries, or the server gone (then a
        helper of its own starts it, and says why if that fails too)."""
        command = _command(argv, env)
        if command is None or b"\0" in os.fsencode(cgroup_dir):
            return None
        output = _open_log(log_path)
        if output is None:
            return None
        report, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            head = _kind(job_namespace, False, keep_batch) + b"\0" + os.fsencode(cgroup_dir) + b"\0"
            socket.send_fds(self.channel, [head + command], [theirs.fileno(), output])
        except OSError as err:
            report.close()
            if err.errno != errno.EMSGSIZE:
                self.close()
            return None
        finally:
            theirs.close()
            os.close(output)
        return Spawning(None, report, argv[0], job_namespace)

    def prepare(self, cgroup_dir: str, job_namespace: bool, keep_batch: bool = False,
                make_cgroup: bool = False) -> Waiting | None:
        """A "-wait" request (module prepare()); None where the server cannot take it."""
        fields = [_kind(job_namespace, True, keep_batch, make_cgroup), os.fsencode(cgroup_dir)]
        if b"\0" in fields[1]:
            return None
        report, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        elsewhere = self._off_this_cpu()
        try:
            socket.send_fds(self.channel, [b"\0".join(fields) + b"\0"], [theirs.fileno()])
        except OSError:
            report.close()
            self.close()
            return None
        finally:
            theirs.close()
        # Otherwise the server is woken on this thread's CPU (a socket's wake-up is a synchronous one, and with the
        # machine busy the scheduler looks for no idle CPU), and at SCHED_BATCH it waits there until this thread
        # sleeps: that was only after the command was sent, so the clone and the job's namespace followed it (~0.25 ms
        # before mpiexec could start). Yielding, they happen now, on this CPU, while the caller waits.
        if not elsewhere:
            os.sched_yield()
        return Waiting(report, job_namespace)

    def _off_this_cpu(self) -> bool:
        """Narrow the server to the CPUs other than this thread's, where there are any: its clone and the job's
        namespace (~0.15 ms) are then made there while this thread plans the launch, instead of on this CPU
        (cgroup_spawn.c gives each clone the driver's CPUs back). False where that cannot be done."""
        if len(self.cpus) < 2:
            return False
        cpu = current_cpu()
        if cpu is None or cpu not in self.cpus:
            return False
        if cpu == self._narrowed_off:  # (as for the last job: the server keeps its CPUs; its clones reset their own)
            return True
        try:
            os.sched_setaffinity(self.pid, self.cpus - {cpu})
        except OSError:  # (the server is gone: the request fails as it would anyway)
            self._narrowed_off = None
            return False
        self._narrowed_off = cpu
        return True

    def close(self) -> None:
        """Stop using this server: it ends on its channel's end."""
        with _server_lock:
            _retire(self)


_getcpu: list = []  # [libc's sched_getcpu, or None where there is none], looked up on first use


def current_cpu() -> int | None:
    """The CPU the calling thread runs on now (libc's sched_getcpu: ~0.1 us, read from the kernel's per-thread
    area); None where it cannot be known."""
    if not _getcpu:
        try:
            import ctypes

            _getcpu.append(ctypes.CDLL(None).sched_getcpu)
        except (ImportError, OSError, AttributeError):
            _getcpu.append(None)
    getcpu = _getcpu[0]
    if getcpu is None:
        return None
    cpu = getcpu()
    return cpu if cpu >= 0 else None


def _kind(job_namespace: bool, waiting: bool, keep_batch: bool, make_cgroup: bool = False) -> bytes:
    """A request's first field (cgroup_spawn.c, request_kind)."""
    return ((b"ns" if job_namespace else b"plain") + (b"-wait" if waiting else b"") + (b"-batch" if keep_batch else b"")
            + (b"-new" if make_cgroup else b""))


def _retire(server: _Server) -> None:
    """(``_server_lock`` held.) Forget ``server`` and close its channel; reaped once it has ended (at once)."""
    if _servers.get(server.owner) is server:
        del _servers[server.owner]
    server.channel.close()
    if server.owner != os.getpid():
        return  # a forked driver's copy: the server is its parent's child
    wait_pid(server.pid, 1.0)  # woken as it ends (~0.1 ms), where polling below would first sleep 1 ms
    for _ in range(1000):
        try:
            if os.waitpid(server.pid, os.WNOHANG)[0]:
                return
        except ChildProcessError:
            return
        time.sleep(0.001)


_servers: dict = {}  # driver pid -> its _Server (a forked driver starts its own: the server's siblings are ours)
_server_lock = threading.Lock()


def _server(helper: str) -> _Server | None:
    with _server_lock:
        server = _servers.get(os.getpid())
        if server is not None and server.helper != helper:  # a rebuilt helper
            _retire(server)
            server = None
        if server is None:
            try:
                server = _servers[os.getpid()] = _Server(helper)
            except OSError:
                return None
        return server


@atexit.register
def _close_own_server() -> None:
    """At exit (after the interpreter has waited for every job's thread, so nothing is launched any more): the server
    ends now, rather than its channel being closed by the interpreter's teardown (a ResourceWarning)."""
    with _server_lock:
        server = _servers.get(os.getpid())
        if server is not None:
            _retire(server)


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
