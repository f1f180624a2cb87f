"""The launcher born inside its job's cgroup: the C helper built from the package's source, real clone3 and cgroups."""

from __future__ import annotations

import errno
import itertools
import os
import shutil
import signal
import socket
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from acpt_estimator.backends.local import cgroup_spawn, mount_ns
from acpt_estimator.backends.local.cgroup import job_cgroups_usable
from acpt_estimator.backends.local.inputs import Mount

pytestmark = [pytest.mark.integration,
              pytest.mark.skipif(job_cgroups_usable() is None, reason="needs a writable cgroup v2 hierarchy"),
              pytest.mark.skipif(shutil.which("cc") is None and shutil.which("gcc") is None,
                                 reason="needs a C compiler to build the helper")]


@pytest.fixture
def helper(tmp_path, monkeypatch):
    """The helper built afresh into an empty cache folder; the module's memory of it restored afterwards."""
    monkeypatch.setenv("ACPT_ESTIMATOR_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv(cgroup_spawn.DISABLE_VAR, raising=False)
    saved = dict(cgroup_spawn._state)
    cgroup_spawn._state.clear()
    assert cgroup_spawn.ready() is None  # not built yet, and ready() never builds
    path = cgroup_spawn.build()
    yield path
    cgroup_spawn._state.clear()
    cgroup_spawn._state.update(saved)


def _procs(group) -> list:
    with open(os.path.join(group, "cgroup.procs"), encoding="utf-8") as handle:
        return handle.read().split()


_groups_made = itertools.count()  # (each test's cgroup is new: one left behind cannot fail the next test's mkdir)


@pytest.fixture
def group():
    """A cgroup of the test's own. A test that left a process running in it fails at teardown, naming it; the
    process is killed and the cgroup removed all the same, so the next test does not inherit it."""
    path = os.path.join(job_cgroups_usable(), f"acpt-test-spawn-{os.getpid()}-{next(_groups_made)}")
    os.mkdir(path)
    yield path
    left = _procs(path)
    for pid in map(int, left):
        os.kill(pid, signal.SIGKILL)
        try:
            os.waitpid(pid, 0)
        except ChildProcessError:  # (not this process's child)
            pass
    deadline = time.monotonic() + 5
    while _procs(path) and time.monotonic() < deadline:  # (killed processes leave the cgroup as they end)
        time.sleep(0.001)
    os.rmdir(path)
    assert not left, f"processes left running in the test's cgroup: {left}"


def _on_a_thread(work):
    """``work()`` on a thread of its own (joining a namespace changes the calling thread for good)."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(work).result()


def _own_name(folder: str) -> str:
    with open("/proc/self/cgroup", encoding="utf-8") as handle:
        own = next(line.strip()[3:] for line in handle if line.startswith("0::"))
    return own.rstrip("/") + "/" + os.path.basename(folder)


def test_the_helper_is_built_once_into_the_cache(helper, tmp_path):
    assert helper.startswith(str(tmp_path / "cache" / "bin")) and os.access(helper, os.X_OK)
    assert cgroup_spawn.ready() == helper == cgroup_spawn.build()
    assert [n for n in os.listdir(os.path.dirname(helper)) if n.endswith(".tmp")] == []


def test_a_command_starts_inside_the_cgroup_as_a_child_of_the_driver_in_its_own_session(helper, group, tmp_path):
    out = tmp_path / "out.txt"
    script = ('cat /proc/self/cgroup; echo "session $(cut -d" " -f6 /proc/$$/stat) pid $$"; ls /proc/$$/fd; '
              'echo "env $ACPT_TEST_VALUE"')
    actions = [(os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
               (os.POSIX_SPAWN_OPEN, 1, str(out), os.O_WRONLY | os.O_CREAT, 0o600), (os.POSIX_SPAWN_DUP2, 1, 2)]
    pid = cgroup_spawn.spawn(helper, group, ["/bin/sh", "-c", script], {"ACPT_TEST_VALUE": "passed on"}, actions)
    assert pid is not None
    _, status = os.waitpid(pid, 0)  # the driver's own child (CLONE_PARENT): waited for here
    assert os.waitstatus_to_exitcode(status) == 0
    lines = out.read_text().splitlines()
    assert f"0::{_own_name(group)}" in lines
    assert f"session {pid} pid {pid}" in lines  # a session of its own, as posix_spawn(setsid=True) gave
    assert "env passed on" in lines
    fds = lines[lines.index(f"session {pid} pid {pid}") + 1:lines.index("env passed on")]
    assert "3" not in fds and {"0", "1", "2"} <= set(fds)  # the helper's report descriptor did not reach it


def test_a_command_that_cannot_be_executed_raises_like_posix_spawn_and_leaves_no_process(helper, group):
    with pytest.raises(FileNotFoundError) as err:
        cgroup_spawn.spawn(helper, group, ["/no/such/launcher"], {}, [])
    assert err.value.filename == "/no/such/launcher"
    with open(os.path.join(group, "cgroup.procs"), encoding="utf-8") as handle:
        assert handle.read().split() == []  # the process that tried was reaped, the cgroup is empty
    assert cgroup_spawn.ready() == helper  # the helper itself works: jobs keep using it


def test_where_the_kernel_refuses_the_helper_jobs_start_the_usual_way(helper, tmp_path):
    assert cgroup_spawn.spawn(helper, str(tmp_path), ["/bin/true"], {}, []) is None  # not a cgroup
    assert cgroup_spawn.ready() is None and cgroup_spawn.build() is None  # later jobs: moved in after their start


def test_without_a_compiler_there_is_no_helper_and_nothing_is_left_behind(tmp_path, monkeypatch):
    monkeypatch.setenv("ACPT_ESTIMATOR_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    saved = dict(cgroup_spawn._state)
    cgroup_spawn._state.clear()
    try:
        assert cgroup_spawn.build() is None and cgroup_spawn.ready() is None
        assert not os.path.exists(tmp_path / "cache" / "bin") or os.listdir(tmp_path / "cache" / "bin") == []
    finally:
        cgroup_spawn._state.clear()
        cgroup_spawn._state.update(saved)


def test_a_helper_others_could_have_written_is_not_run(helper):
    os.chmod(helper, 0o777)  # as if planted in a shared cache folder
    cgroup_spawn._state.clear()
    try:
        assert cgroup_spawn.ready() is None
        rebuilt = cgroup_spawn.build()  # replaced by a fresh build of its own
        assert rebuilt == helper and os.stat(helper).st_mode & 0o777 == 0o755
    finally:
        os.chmod(helper, 0o755)


def _capabilities(text: str) -> dict:
    return {line.split(":")[0]: int(line.split()[1], 16) for line in text.splitlines() if line.startswith("Cap")}


@pytest.mark.skipif(not mount_ns.available(), reason="needs root with CAP_SYS_ADMIN (mount namespaces)")
def test_with_the_job_namespace_the_command_gets_a_private_namespace_without_the_two_capabilities(
        helper, group, tmp_path):
    """What the watcher thread did on itself (mount_ns.entered, drop_job_capabilities), done by the helper; the
    driver joins that namespace by the descriptor the helper sent to make the job's binds, and they stay in it."""
    out, view, outside = tmp_path / "out.txt", tmp_path / "view", tmp_path / "outside"
    view.mkdir()
    outside.mkdir()
    gate_r, gate_w = os.pipe()  # the command waits (on stdin) until the bind is made
    actions = [(os.POSIX_SPAWN_DUP2, gate_r, 0),
               (os.POSIX_SPAWN_OPEN, 1, str(out), os.O_WRONLY | os.O_CREAT, 0o600), (os.POSIX_SPAWN_DUP2, 1, 2)]
    script = "read line; readlink /proc/self/ns/mnt; cat /proc/self/status; ls $0"
    spawning = cgroup_spawn.start(helper, group, ["/bin/sh", "-c", script, str(view)], {}, actions,
                                  job_namespace=True)
    os.close(gate_r)
    pid = spawning.finish()
    assert pid is not None
    own_namespace, job_namespace, thread_namespace = _bind_in_the_job_namespace(spawning.namespace, outside, view)
    os.write(gate_w, b"go\n")
    os.close(gate_w)
    _, status = os.waitpid(pid, 0)
    os.close(spawning.namespace)
    assert os.waitstatus_to_exitcode(status) == 0
    _check_the_job_namespace(out.read_text().splitlines(), job_namespace, own_namespace, thread_namespace, view)


def _bind_in_the_job_namespace(namespace: int, outside, view) -> tuple[str, str, str]:
    """``outside`` bound over ``view`` in the job's ``namespace``, joined by its descriptor from a thread of its
    own, as the supervisor does; the driver's namespace, the job's and the thread's once it is back."""
    own_namespace = os.readlink("/proc/self/ns/mnt")
    job_namespace = os.readlink(f"/proc/self/fd/{namespace}")
    assert job_namespace.startswith("mnt:[") and job_namespace != own_namespace  # else the bind below would leak

    def bind_in_its_namespace():
        with mount_ns.joined(namespace):
            mount_ns.bind([Mount(str(outside), str(view), writable=False)])
        return os.readlink("/proc/thread-self/ns/mnt")

    (outside / "seen-through-the-bind").write_text("x")
    return own_namespace, job_namespace, _on_a_thread(bind_in_its_namespace)


def _check_the_job_namespace(lines, job_namespace, own_namespace, thread_namespace, view) -> None:
    assert lines[0] == job_namespace  # the command's is the one the helper sent
    assert thread_namespace == own_namespace  # the joining thread is back in the driver's
    assert "seen-through-the-bind" in lines  # the bind made by pid reached the command
    assert os.listdir(view) == []  # and only there: the driver's view of the folder is untouched
    caps = _capabilities("\n".join(lines))
    admin_and_ptrace = (1 << mount_ns.CAP_SYS_ADMIN) | (1 << mount_ns.CAP_SYS_PTRACE)
    for key in ("CapBnd", "CapInh", "CapPrm", "CapEff"):
        assert caps[key] & admin_and_ptrace == 0, key
    assert caps["CapPrm"] != 0  # root's other capabilities stay


def test_a_namespace_the_helper_could_not_make_is_reported_as_such(tmp_path):
    """The helper's report "error <step> <errno>" (a driver without CAP_SYS_ADMIN, say) is NamespaceRefused, which
    the supervisor turns into the same refusal as a namespace its own thread could not make."""
    report, helper_end = socket.socketpair()
    helper_end.sendall(b"error unshare 1\n")
    helper_end.close()
    process = subprocess.Popen(["/bin/true"])  # stands in for the helper, which has exited after reporting
    with pytest.raises(cgroup_spawn.NamespaceRefused) as err:
        cgroup_spawn.Spawning(process.pid, report, "/usr/bin/mpiexec", job_namespace=True).finish()
    assert err.value.where == "unshare" and err.value.errno == 1
    refusal = mount_ns.namespace_refused(err.value.where, err.value)
    assert "read-only view could not be made (Operation not permitted)" in str(refusal)
    assert "CAP_SETPCAP" in str(mount_ns.namespace_refused("capabilities", err.value))


def test_a_namespace_the_server_s_child_could_not_make_is_reported_and_that_child_reaped():
    child = subprocess.Popen(["/bin/true"])  # stands in for the request's child, which exits after reporting
    report, server_end = socket.socketpair()
    server_end.sendall(f"error capabilities 1 {child.pid}\n".encode())
    server_end.close()
    with pytest.raises(cgroup_spawn.NamespaceRefused) as err:
        cgroup_spawn.Spawning(None, report, "/usr/bin/mpiexec", job_namespace=True).finish()
    assert err.value.where == "capabilities" and err.value.errno == 1
    with pytest.raises(ChildProcessError):
        os.waitpid(child.pid, os.WNOHANG)  # reaped by finish()
    child.returncode = 0  # (so Popen does not wait for it again)


def test_a_started_command_whose_namespace_did_not_come_is_ended_not_run_without_it():
    command = subprocess.Popen(["/bin/sleep", "30"])  # stands in for mpiexec, started by the helper
    helper = subprocess.Popen(["/bin/true"])
    report, helper_end = socket.socketpair()
    helper_end.sendall(f"{command.pid}\n".encode())  # no descriptor attached
    helper_end.close()
    with pytest.raises(cgroup_spawn.NamespaceRefused):
        cgroup_spawn.Spawning(helper.pid, report, "/usr/bin/mpiexec", job_namespace=True).finish()
    assert not os.path.exists(f"/proc/{command.pid}")  # killed and reaped


# ---- the driver's spawn server (cgroup_spawn.launch): the helper's --serve mode, one process for every job ----------

def _served(helper, group, argv, env, log, job_namespace=False) -> cgroup_spawn.Spawning:
    spawning = cgroup_spawn.launch(helper, group, argv, env, str(log), job_namespace)
    assert spawning is not None and spawning.helper_pid is None  # the server took it: no helper process of its own
    return spawning


def test_the_spawn_server_starts_every_launcher_inside_its_cgroup_as_a_child_of_the_driver(helper, group, tmp_path):
    script = ('cat /proc/self/cgroup; echo "session $(cut -d" " -f6 /proc/$$/stat) pid $$"; ls /proc/$$/fd; '
              'echo "env $ACPT_TEST_VALUE $1"; read nothing || echo "stdin empty"')
    servers = set()
    for job in range(2):
        log = tmp_path / f"mpiexec-{job}.txt"
        log.write_text("before\n")  # appended to, as the launcher's log always is
        pid = _served(helper, group, ["/bin/sh", "-c", script, "sh", f"job {job}"], {"ACPT_TEST_VALUE": "passed on"},
                      log).finish()
        servers.add(cgroup_spawn._servers[os.getpid()].pid)
        _, status = os.waitpid(pid, 0)  # the driver's own child (CLONE_PARENT of the server): waited for here
        assert os.waitstatus_to_exitcode(status) == 0
        lines = log.read_text().splitlines()
        assert lines[0] == "before" and f"0::{_own_name(group)}" in lines
        assert f"session {pid} pid {pid}" in lines
        assert f"env passed on job {job}" in lines and lines[-1] == "stdin empty"
        fds = lines[lines.index(f"session {pid} pid {pid}") + 1:lines.index(f"env passed on job {job}")]
        assert {"0", "1", "2"} <= set(fds) and not {"3", "4", "5"} & set(fds)  # nothing of the server's or ours
    assert len(servers) == 1  # one server for both jobs
    server = cgroup_spawn._servers[os.getpid()]
    assert os.readlink(f"/proc/{server.pid}/exe") == helper
    server.close()
    assert not os.path.exists(f"/proc/{server.pid}")  # ended with its channel, and reaped
    assert os.getpid() not in cgroup_spawn._servers  # the next launch starts a new one


def test_through_the_server_a_command_that_cannot_be_executed_raises_and_leaves_no_process(helper, group, tmp_path):
    spawning = _served(helper, group, ["/no/such/launcher"], {}, tmp_path / "log.txt")
    with pytest.raises(FileNotFoundError) as err:
        spawning.finish()
    assert err.value.filename == "/no/such/launcher"
    with open(os.path.join(group, "cgroup.procs"), encoding="utf-8") as handle:
        assert handle.read().split() == []  # the process that tried was reaped, the cgroup is empty
    assert cgroup_spawn.ready() == helper  # the server works: jobs keep using it
    cgroup_spawn._servers[os.getpid()].close()


def test_what_the_server_cannot_take_a_helper_of_its_own_starts(helper, group, tmp_path):
    """A request larger than the channel carries (a huge environment) or the server gone: the helper starts it."""
    log = tmp_path / "log.txt"
    big = {f"BIG_{n}": "x" * 100_000 for n in range(6)}  # 600 kB: more than a socket's buffer, less than exec's limit
    spawning = cgroup_spawn.launch(helper, group, ["/bin/sh", "-c", 'echo "${#BIG_5}"'], big, str(log))
    assert spawning.helper_pid is not None  # a helper of its own
    _, status = os.waitpid(spawning.finish(), 0)
    assert os.waitstatus_to_exitcode(status) == 0 and log.read_text().split() == ["100000"]
    server = cgroup_spawn._servers[os.getpid()]  # still serving the next job
    os.kill(server.pid, 9)
    os.waitpid(server.pid, 0)
    spawning = cgroup_spawn.launch(helper, group, ["/bin/true"], {}, str(log))
    assert spawning.helper_pid is not None and os.getpid() not in cgroup_spawn._servers  # gone: forgotten
    os.waitpid(spawning.finish(), 0)
    pid = _served(helper, group, ["/bin/true"], {}, log).finish()  # a new server for the next
    assert pid is not None
    os.waitpid(pid, 0)  # (our child: it may still run as the report comes)
    cgroup_spawn._servers[os.getpid()].close()


@pytest.mark.skipif(not mount_ns.available(), reason="needs root with CAP_SYS_ADMIN (mount namespaces)")
@pytest.mark.parametrize("made_ahead", [False, True], ids=["served", "made-ahead"])
def test_through_the_server_the_job_namespace_is_the_same(helper, group, tmp_path, made_ahead):
    """Launched whole by the server, or made ahead (cgroup_spawn.prepare) and given its command later."""
    view, outside, go = tmp_path / "view", tmp_path / "outside", tmp_path / "go"
    view.mkdir()
    outside.mkdir()
    log = tmp_path / "log.txt"
    script = 'until [ -e "$1" ]; do sleep 0.01; done; readlink /proc/self/ns/mnt; cat /proc/self/status; ls "$0"'
    argv = ["/bin/sh", "-c", script, str(view), str(go)]
    spawning = (cgroup_spawn.prepare(helper, group, job_namespace=True).go(argv, {}, str(log)) if made_ahead
                else _served(helper, group, argv, {}, log, job_namespace=True))
    pid = spawning.finish()
    own_namespace, job_namespace, thread_namespace = _bind_in_the_job_namespace(spawning.namespace, outside, view)
    go.write_text("")
    _, status = os.waitpid(pid, 0)
    os.close(spawning.namespace)
    assert os.waitstatus_to_exitcode(status) == 0
    _check_the_job_namespace(log.read_text().splitlines(), job_namespace, own_namespace, thread_namespace, view)
    cgroup_spawn._servers[os.getpid()].close()


def _ignored_signals(log) -> int:
    line = next(line for line in log.read_text().splitlines() if line.startswith("SigIgn:"))
    return int(line.split()[1], 16)


def test_every_way_a_launcher_starts_gives_it_the_signals_a_shell_would(helper, group, tmp_path):
    """Python ignores SIGPIPE and SIGXFSZ, and what it spawns would inherit that (a job's `yes | head` then sees
    EPIPE where it ends quietly under a plain mpiexec): the server, the helper and the fallback reset both."""
    from acpt_estimator.backends.local.supervisor import _Process

    argv = ["/bin/grep", "SigIgn", "/proc/self/status"]
    logs = [tmp_path / f"{way}.txt" for way in ("server", "helper", "posix_spawn")]
    spawned = [_served(helper, group, argv, {}, logs[0]).finish(),
               cgroup_spawn.start(helper, group, argv, {}, cgroup_spawn.file_actions(str(logs[1]))).finish(),
               _Process.spawn(argv, {}, str(logs[2])).pid]
    for pid in spawned:
        os.waitpid(pid, 0)
    pipe_and_file_size = (1 << (signal.SIGPIPE - 1)) | (1 << (signal.SIGXFSZ - 1))
    assert signal.getsignal(signal.SIGPIPE) == signal.SIG_IGN  # (this process ignores it, as Python does)
    for log in logs:
        assert _ignored_signals(log) & pipe_and_file_size == 0, log.name
    cgroup_spawn._servers[os.getpid()].close()


# ---- a launcher made ahead (cgroup_spawn.prepare): cloned while the driver plans, given its command by go() -------

def test_a_launcher_made_ahead_gets_its_command_later_and_runs_as_a_served_one(helper, group, tmp_path):
    waiting = cgroup_spawn.prepare(helper, group)
    assert waiting is not None
    log = tmp_path / "mpiexec.txt"
    log.write_text("before\n")
    script = ('cat /proc/self/cgroup; echo "session $(cut -d" " -f6 /proc/$$/stat) pid $$"; ls /proc/$$/fd; '
              'echo "env ${#BIG_2} $1"; grep SigIgn /proc/self/status; read nothing || echo "stdin empty"')
    # An environment larger than a socket's buffer: it streams to the waiting process after its descriptor.
    big = {f"BIG_{n}": "x" * 100_000 for n in range(3)}
    spawning = waiting.go(["/bin/sh", "-c", script, "sh", "argument"], big, str(log))
    assert spawning is not None and spawning.helper_pid is None
    pid = spawning.finish()
    _, status = os.waitpid(pid, 0)  # the driver's own child, as a served launcher is
    assert os.waitstatus_to_exitcode(status) == 0
    lines = log.read_text().splitlines()
    assert lines[0] == "before" and f"0::{_own_name(group)}" in lines
    assert f"session {pid} pid {pid}" in lines and "env 100000 argument" in lines and lines[-1] == "stdin empty"
    fds = lines[lines.index(f"session {pid} pid {pid}") + 1:lines.index("env 100000 argument")]
    assert {"0", "1", "2"} <= set(fds) and not {"3", "4", "5"} & set(fds)
    assert _ignored_signals(log) & ((1 << (signal.SIGPIPE - 1)) | (1 << (signal.SIGXFSZ - 1))) == 0
    assert _procs(group) == []
    cgroup_spawn._servers[os.getpid()].close()


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="one CPU: the server is never moved off it")
def test_the_server_clones_off_the_driver_s_cpu_and_the_launcher_gets_all_the_driver_s_cpus_back(helper, group,
                                                                                                  tmp_path):
    """A launcher made ahead is cloned on a CPU other than the asking thread's (the server is narrowed to those), and
    what runs there has every CPU the driver had, as under a plain mpiexec."""
    cpus = os.sched_getaffinity(0)
    waiting = cgroup_spawn.prepare(helper, group)
    assert waiting is not None
    server = cgroup_spawn._servers[os.getpid()]
    narrowed = os.sched_getaffinity(server.pid)
    assert narrowed and narrowed < cpus  # never the CPU the request came from (which one that was: it may move)
    log = tmp_path / "mpiexec.txt"
    pid = waiting.go(["/bin/sh", "-c", "grep Cpus_allowed_list /proc/self/status"], {}, str(log)).finish()
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    listed = log.read_text().split(":", 1)[1].strip()
    assert _cpu_list(listed) == cpus
    server.close()


def _cpu_list(text: str) -> set:
    """A kernel CPU list ("0-3,6") as a set."""
    found = set()
    for part in text.split(","):
        first, _, last = part.partition("-")
        found.update(range(int(first), int(last or first) + 1))
    return found


def test_asked_to_the_server_makes_the_job_s_cgroup_and_clones_the_launcher_into_it(helper, group, tmp_path):
    job = os.path.join(group, "job")
    waiting = cgroup_spawn.prepare(helper, job, make_cgroup=True)
    assert waiting is not None
    log = tmp_path / "mpiexec.txt"
    pid = waiting.go(["/bin/sh", "-c", "cat /proc/self/cgroup"], {}, str(log)).finish()
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert f"0::{_own_name(group)}/job" in log.read_text().splitlines()
    os.rmdir(job)
    cgroup_spawn._servers[os.getpid()].close()


def test_a_cgroup_the_server_cannot_make_runs_nothing_and_says_why(helper, group, tmp_path):
    """The job's cgroup must be new: one that exists (here: the test's own) fails the request as "error mkdir
    EEXIST", whether the command was still sent (finish() raises) or no longer could be (go() gives up)."""
    log = tmp_path / "mpiexec.txt"
    for _ in range(3):  # (which of the two happens depends on how fast the server answers)
        spawning = cgroup_spawn.prepare(helper, group, make_cgroup=True).go(["/bin/true"], {}, str(log))
        if spawning is not None:
            with pytest.raises(cgroup_spawn.CgroupNotMade) as err:
                spawning.finish()
            assert err.value.errno == errno.EEXIST and "making the job's cgroup" in str(err.value)
        assert _procs(group) == [] and not log.read_text()
    assert cgroup_spawn.ready() == helper  # only that job's cgroup failed: the helper stays in use
    report, theirs = socket.socketpair()
    server = cgroup_spawn._servers[os.getpid()]
    socket.send_fds(server.channel, [b"plain-wait-new\0" + os.fsencode(group) + b"\0"], [theirs.fileno()])
    theirs.close()
    assert cgroup_spawn._read_report(report)[0] == f"error mkdir {errno.EEXIST}\n"
    report.close()
    server.close()


def test_a_launcher_made_ahead_and_canceled_runs_nothing_and_is_reaped(helper, group):
    waiting = cgroup_spawn.prepare(helper, group)
    deadline = time.monotonic() + 5
    while not _procs(group) and time.monotonic() < deadline:  # (the server clones it meanwhile)
        time.sleep(0.001)
    [pid] = _procs(group)
    assert os.readlink(f"/proc/{pid}/exe") == helper  # a clone of the server, waiting for its command
    waiting.cancel()
    waiting.cancel()  # (idempotent)
    assert _procs(group) == [] and not os.path.exists(f"/proc/{pid}")  # ended, and reaped here: not even a zombie
    cgroup_spawn._servers[os.getpid()].close()


def test_a_command_the_waiting_launcher_cannot_take_is_refused_and_the_launcher_reaped(helper, group, tmp_path):
    waiting = cgroup_spawn.prepare(helper, group)
    assert waiting.go(["/bin/true"], {"VALUE": "a\0b"}, str(tmp_path / "log.txt")) is None  # a NUL: launch() then
    assert _procs(group) == []
    spawning = cgroup_spawn.prepare(helper, group).go(["/no/such/launcher"], {}, str(tmp_path / "log.txt"))
    with pytest.raises(FileNotFoundError) as err:
        spawning.finish()
    assert err.value.filename == "/no/such/launcher" and _procs(group) == []
    cgroup_spawn._servers[os.getpid()].close()


def test_a_report_cut_by_a_reset_still_says_what_happened(helper):
    """A launcher made ahead whose clone failed closes its end with the command we sent unread: the report then ends
    with ECONNRESET instead of an end of file, after what was written."""
    report, peer = socket.socketpair()
    report.sendall(b"the command, never read")
    peer.sendall(b"error clone3 22\n")
    peer.close()
    assert cgroup_spawn.Spawning(None, report, "/usr/bin/mpiexec", job_namespace=False).finish() is None
    assert cgroup_spawn.ready() is None  # the kernel refused the clone: later jobs start the usual way
    child = subprocess.Popen(["/bin/true"])  # stands in for a made-ahead process whose namespace failed
    report, peer = socket.socketpair()
    report.sendall(b"the command, never read")
    peer.sendall(f"error unshare 1 {child.pid}\n".encode())
    peer.close()
    cgroup_spawn.Waiting(report, job_namespace=True).cancel()
    with pytest.raises(ChildProcessError):
        os.waitpid(child.pid, os.WNOHANG)  # reaped by cancel()
    child.returncode = 0  # (so Popen does not wait for it again)


def test_a_launcher_keeps_the_server_s_batch_policy_only_when_asked(helper, group, tmp_path):
    """A job whose ranks start through the C rank launcher keeps mpiexec at the server's SCHED_BATCH (rank_exec.c says
    why; that launcher gives each rank's command the driver's policy back); any other launch gets the driver's."""
    argv = ["/bin/sh", "-c", "grep -E '^policy' /proc/self/sched | tr -d ' '"]
    policies = {}
    for way, keep_batch in (("served", False), ("served-batch", True), ("ahead", False), ("ahead-batch", True)):
        log = tmp_path / f"{way}.txt"
        if way.startswith("ahead"):
            spawning = cgroup_spawn.prepare(helper, group, keep_batch=keep_batch).go(argv, {}, str(log))
        else:
            spawning = cgroup_spawn.launch(helper, group, argv, {}, str(log), keep_batch=keep_batch)
        _, status = os.waitpid(spawning.finish(), 0)
        assert os.waitstatus_to_exitcode(status) == 0
        policies[way] = int(log.read_text().split(":")[-1])
    server = cgroup_spawn._servers[os.getpid()]
    if os.sched_getscheduler(server.pid) == os.SCHED_BATCH:  # (the server moves itself only from SCHED_OTHER)
        assert policies == {"served": os.SCHED_OTHER, "served-batch": os.SCHED_BATCH, "ahead": os.SCHED_OTHER,
                            "ahead-batch": os.SCHED_BATCH}
    else:
        assert set(policies.values()) == {os.sched_getscheduler(0)}
    server.close()


def test_a_request_of_a_kind_the_server_does_not_know_is_refused_and_runs_nothing(helper, group):
    cgroup_spawn.prepare(helper, group).cancel()  # (the server runs)
    server = cgroup_spawn._servers[os.getpid()]
    for kind in (b"nsx-wait", b"plain-batch-wait", b"ns-wait-batchy", b"namespace", b"ns-new-wait", b"plain-newer"):
        report, theirs = socket.socketpair()
        socket.send_fds(server.channel, [kind + b"\0" + os.fsencode(group) + b"\0"], [theirs.fileno()])
        theirs.close()
        text, _ = cgroup_spawn._read_report(report)
        report.close()
        assert text == "error request 22\n", (kind, text)
    assert _procs(group) == []
    server.close()
