"""The C rank launcher (rank_exec.c) does what rank.sh does: the same scenarios, run by both, give the same results."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time

import attrs
import pytest

from acpt_estimator import Mpi, PyTorch
from acpt_estimator.backends.local import rank_exec
from acpt_estimator.backends.local.gate import Gate
from acpt_estimator.backends.local.launch import (EXIT_NO_DRIVER, EXIT_NO_RANK, EXIT_NO_WORKDIR, EXIT_UNTRACKED,
                                                  LaunchContext, gate_by_lines, plan_launch)
from acpt_estimator.backends.local.mpi import Launcher
from acpt_estimator.backends.local.native import NativeHelper

pytestmark = pytest.mark.integration
HAS_COMPILER = shutil.which("cc") is not None or shutil.which("gcc") is not None
MPICH = Launcher("/venv/bin/mpiexec", "mpich", "5.0.2")


@pytest.fixture(scope="module")
def helper(tmp_path_factory):
    """The C launcher built afresh into a cache folder of this module's own, as the package builds it (against musl
    where musl-gcc is installed)."""
    if not HAS_COMPILER:
        pytest.skip("needs a C compiler to build the rank launcher")
    cache = tmp_path_factory.mktemp("cache")
    saved_cache, saved_state = os.environ.get("ACPT_ESTIMATOR_CACHE"), dict(rank_exec._state)
    os.environ["ACPT_ESTIMATOR_CACHE"] = str(cache)
    rank_exec._state.clear()
    try:
        path = rank_exec.build()
        assert path and path.startswith(str(cache)) and rank_exec.ready() == path
        yield path
    finally:
        rank_exec._state.clear()
        rank_exec._state.update(saved_state)
        _restore_cache(saved_cache)


@pytest.fixture(scope="module")
def glibc_helper(tmp_path_factory):
    """The same launcher built with the system's C compiler (what machines without musl-gcc run)."""
    if not HAS_COMPILER:
        pytest.skip("needs a C compiler to build the rank launcher")
    saved_cache = os.environ.get("ACPT_ESTIMATOR_CACHE")
    os.environ["ACPT_ESTIMATOR_CACHE"] = str(tmp_path_factory.mktemp("cache"))
    try:
        yield NativeHelper("acpt-rank", "rank_exec.c", rank_exec.DISABLE_VAR).build()
    finally:
        _restore_cache(saved_cache)


def _restore_cache(saved):
    if saved is None:
        os.environ.pop("ACPT_ESTIMATOR_CACHE", None)
    else:
        os.environ["ACPT_ESTIMATOR_CACHE"] = saved


@pytest.fixture(params=["rank_exec", "rank_exec_cc", "bash"])
def runner(request):
    """How ranks start: the C launcher's path (as built here, and built with the system's compiler where that differs),
    or "" for rank.sh through bash."""
    if request.param == "bash":
        return ""
    if request.param == "rank_exec_cc" and not shutil.which("musl-gcc"):
        pytest.skip("the package's build is the system compiler's here: covered by the rank_exec case")
    return request.getfixturevalue("helper" if request.param == "rank_exec" else "glibc_helper")


def test_the_launcher_is_built_against_musl_where_musl_gcc_is_installed(helper, glibc_helper):
    """A static glibc program probes the CPU (cpuid, a hypervisor trap on a VM) before main: musl's starts sooner."""
    with open(helper, "rb") as built, open(glibc_helper, "rb") as system:
        musl, glibc = b"glibc" not in built.read(), b"glibc" not in system.read()
    assert musl == bool(shutil.which("musl-gcc")) and not glibc


def _own_cgroup() -> str:
    with open("/proc/self/cgroup", encoding="utf-8") as handle:
        return next(line.strip()[3:] for line in handle if line.startswith("0::"))


def _rank(tmp_path, runner, *, python="/usr/bin/printf", script="%s|", params=(), world=1, rank="0", ready=True,
          wait=False, driver_pid=0, cgroup="", workdir=None, env=None, command=None, extra_fds=()):
    """One rank of a ``world``-rank job run the way mpiexec would run it; printf stands in for python."""
    spec = PyTorch(str(tmp_path), entry_script=script, compute_target="local", script_params=list(params),
                   distributed_training=Mpi(world)).to_job_spec(experiment_name="e")
    if command is not None:  # ScriptRunConfig(command=...): a shell command instead of python + script
        spec = attrs.evolve(spec, command=command)
    run = tmp_path / "run"
    for sub in ("snapshot", "status", "files/user_logs"):
        (run / sub).mkdir(parents=True, exist_ok=True)
    ctx = LaunchContext(run_id="e_1_abcdef12", experiment_name="e", run_dir=str(run),
                        workdir=workdir or str(run / "snapshot"), user_logs=str(run / "files/user_logs"),
                        status_dir=str(run / "status"), store_home=str(tmp_path), python=python, launcher=MPICH,
                        master_port=29500, base_env={"PATH": "/usr/bin:/bin"}, cores=2, cgroup=cgroup,
                        driver_pid=driver_pid, rank_exec=runner)
    plan = _written(plan_launch(spec, ctx))
    # As job._launch_first does:
    gate = Gate(str(run), world, parties=1, ready_file=not gate_by_lines(ctx.rank_exec, world))
    if ready:
        gate.arrive()
    # mpiexec's environment (the launcher's part of the job's), and the rank's number as hydra sets it.
    environ = {**plan.env, "PWD": "/", **({"PMI_RANK": rank} if rank is not None else {}), **(env or {})}
    process = subprocess.Popen(list(plan.rank_command), env=environ, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, pass_fds=extra_fds)
    if wait:
        time.sleep(0.3)
        assert process.poll() is None and not list((run / "files/user_logs").iterdir())  # held at the gate
        gate.arrive()
    out, err = process.communicate(timeout=30)
    gate.close()
    logs = {p.name: p.read_text() for p in (run / "files/user_logs").iterdir()}
    return process.returncode, err, logs, sorted(os.listdir(run / "status")), plan


def _written(plan):
    """``plan`` with its files in the run folder, as the driver writes them: rank.sh before mpiexec starts, rank.plan
    (or rank.body) while it starts."""
    if plan.entry_path:
        with open(plan.entry_path, "w", encoding="utf-8") as handle:
            handle.write(plan.entry_script)
    with open(plan.script_path, "wb") as handle:
        handle.write(plan.script.encode() if isinstance(plan.script, str) else plan.script)
    return plan


def test_arguments_and_variables_reach_the_command_verbatim(tmp_path, runner):
    tricky = ["it's", "a b", "`id`", "$(id)", '"q"', "*", "x;y", "\\n", "tab\there", "new\nline", "ünï"]
    code, err, logs, status, plan = _rank(tmp_path, runner, params=tricky, world=2, rank="1")
    assert code == 0, err
    assert logs["std_log_process_1.txt"].split("|")[:-1] == tricky
    assert status == ["rank_1_exit_0"]
    assert plan.rank_command[0] == (runner or "/bin/bash")


def test_the_rank_sees_its_own_variables_and_its_working_directory(tmp_path, runner):
    shown = "RANK=$RANK LOCAL_RANK=$LOCAL_RANK PWD=$PWD cwd=$(pwd) stdin=$(cat)"
    code, err, logs, status, _ = _rank(tmp_path, runner, world=2, rank="1", command=f"echo \"{shown}\"")
    assert code == 0, err
    snapshot = tmp_path / "run" / "snapshot"
    assert logs["std_log_process_1.txt"] == f"RANK=1 LOCAL_RANK=1 PWD={snapshot} cwd={snapshot} stdin=\n"


def test_the_rank_sees_the_whole_job_environment_though_mpiexec_started_with_part_of_it(tmp_path, runner):
    """mpiexec starts before the run is planned: the job's variables it lacks reach each rank through its plan."""
    code, err, logs, _, plan = _rank(tmp_path, runner, world=2, rank="1", command="env")
    assert code == 0, err
    seen = dict(line.split("=", 1) for line in logs["std_log_process_1.txt"].splitlines() if "=" in line)
    assert "MASTER_PORT" not in plan.env and "AZUREML_RUN_ID" not in plan.env  # known only once the run is planned
    expected = {**plan.job_env, **plan.ranks[1].env}
    assert {k: seen.get(k) for k in expected if k != "PWD"} == {k: v for k, v in expected.items() if k != "PWD"}


@pytest.mark.parametrize("command, expected", [("exit 3", 3), ("kill -TERM $$", 128 + signal.SIGTERM),
                                               ("/no/such/program", 127)])
def test_the_exit_marker_and_code_are_the_commands(tmp_path, runner, command, expected):
    code, _, _, status, _ = _rank(tmp_path, runner, command=command)
    assert code == expected and status == [f"rank_0_exit_{expected}"]


def test_a_program_that_cannot_be_executed_is_127_with_its_reason_in_the_log(tmp_path, runner):
    code, _, logs, status, _ = _rank(tmp_path, runner, python="/no/such/python")
    assert code == 127 and status == ["rank_0_exit_127"]
    assert "/no/such/python" in logs["std_log.txt"] and "No such file" in logs["std_log.txt"]


def test_a_program_without_a_shebang_line_runs_under_the_shell(tmp_path, runner):
    program = tmp_path / "wrapper"
    program.write_text('echo "by sh: $0 $1"\n')  # no #! line: exec refuses it (ENOEXEC), execvp runs it with sh
    program.chmod(0o755)
    code, _, logs, status, _ = _rank(tmp_path, runner, python=str(program), script="first")
    assert code == 0 and status == ["rank_0_exit_0"]
    assert logs["std_log.txt"] == f"by sh: {program} first\n"


def test_descriptors_the_launcher_left_open_do_not_reach_the_command(tmp_path, runner):
    read_end, write_end = os.pipe()
    try:
        os.set_inheritable(write_end, True)
        code, err, logs, _, _ = _rank(tmp_path, runner, command="ls /proc/self/fd", extra_fds=(write_end,))
    finally:
        os.close(read_end)
        os.close(write_end)
    assert code == 0, err
    assert sorted(int(n) for n in logs["std_log.txt"].split()) <= [0, 1, 2, 3]  # 3: ls's own listing


def test_a_process_without_a_rank_is_refused(tmp_path, runner):
    code, err, _, status, _ = _rank(tmp_path, runner, rank=None)
    assert code == EXIT_NO_RANK and "no MPI rank" in err and status == []


def test_a_rank_waits_at_the_gate_until_the_driver_opens_it(tmp_path, runner):
    code, err, logs, _, _ = _rank(tmp_path, runner, ready=False, wait=True, driver_pid=os.getpid(),
                                  cgroup=_own_cgroup())
    assert code == 0, err
    assert logs["std_log.txt"] == "|"  # printf's output: the command ran once the gate opened


def test_a_rank_that_finds_no_gate_yet_waits_for_it_to_be_made(tmp_path, helper):
    """The driver may make the run folder, and the gate's FIFO in it, only after mpiexec's start (job.start,
    folder_later): the rank looks for the FIFO again until it is there, then waits for its line as usual. Only the C
    rank launcher (as built here) is started that way; rank.sh always finds its FIFO made before mpiexec starts."""
    runner = helper
    spec = PyTorch(str(tmp_path), entry_script="%s|", compute_target="local",
                   distributed_training=Mpi(1)).to_job_spec(experiment_name="e")
    run = tmp_path / "run"
    ctx = LaunchContext(run_id="e_1_abcdef12", experiment_name="e", run_dir=str(run), workdir=str(run / "snapshot"),
                        user_logs=str(run / "files/user_logs"), status_dir=str(run / "status"),
                        store_home=str(tmp_path), python="/usr/bin/printf", launcher=MPICH, master_port=29500,
                        base_env={"PATH": "/usr/bin:/bin"}, cores=2, driver_pid=os.getpid(), rank_exec=runner)
    plan = plan_launch(spec, ctx)
    rank = subprocess.Popen(list(plan.rank_command), env={**plan.env, "PMI_RANK": "0"}, stderr=subprocess.PIPE,
                            text=True)
    time.sleep(0.2)
    assert rank.poll() is None  # no run folder at all yet: waiting
    for sub in ("snapshot", "status", "files/user_logs"):
        (run / sub).mkdir(parents=True)
    gate = Gate(str(run), 1, parties=1, ready_file=False, make=False)
    time.sleep(0.1)
    gate.make()
    _written(plan)
    time.sleep(0.1)
    assert rank.poll() is None  # the FIFO is there, its line not yet
    gate.arrive()
    assert rank.wait(timeout=30) == 0, rank.stderr.read()
    gate.close()
    assert (run / "files/user_logs/std_log.txt").read_text() == "|"


def test_every_rank_of_a_job_passes_the_gate_on_its_own_line(tmp_path, runner):
    """Four ranks wait at once; the driver's one write of four lines lets each through (rank_exec: no ready file)."""
    spec = PyTorch(str(tmp_path), entry_script="%s|", compute_target="local",
                   distributed_training=Mpi(4)).to_job_spec(experiment_name="e")
    run = tmp_path / "run"
    for sub in ("snapshot", "status", "files/user_logs"):
        (run / sub).mkdir(parents=True)
    ctx = LaunchContext(run_id="e_1_abcdef12", experiment_name="e", run_dir=str(run), workdir=str(run / "snapshot"),
                        user_logs=str(run / "files/user_logs"), status_dir=str(run / "status"),
                        store_home=str(tmp_path), python="/usr/bin/printf", launcher=MPICH, master_port=29500,
                        base_env={"PATH": "/usr/bin:/bin"}, cores=2, driver_pid=os.getpid(), rank_exec=runner)
    plan = _written(plan_launch(spec, ctx))
    gate = Gate(str(run), 4, parties=1, ready_file=not gate_by_lines(ctx.rank_exec, 4))
    ranks = [subprocess.Popen(list(plan.rank_command), env={**plan.env, "PMI_RANK": str(rank)})
             for rank in range(4)]
    time.sleep(0.3)
    assert [r.poll() for r in ranks] == [None] * 4  # all held
    gate.arrive()
    assert [r.wait(timeout=30) for r in ranks] == [0] * 4
    gate.close()
    assert sorted(os.listdir(run / "status")) == [f"rank_{r}_exit_0" for r in range(4)]
    assert (run / "ready").exists() == (not runner)


def test_a_rank_whose_driver_ended_never_runs_its_command(tmp_path, runner):
    gone = subprocess.Popen(["/bin/true"])
    gone.wait()
    code, err, logs, _, _ = _rank(tmp_path, runner, ready=False, driver_pid=gone.pid)
    assert code == EXIT_NO_DRIVER and logs == {}  # nothing ran, and nothing was written in a log
    # There is no log folder before the run is prepared: the message is in the launcher's log (its stderr).
    assert "rank 0: its driver ended before the run was prepared" in err


def test_a_rank_outside_the_jobs_cgroup_never_runs_its_command(tmp_path, runner):
    code, _, logs, status, _ = _rank(tmp_path, runner, cgroup="/acpt-driver-1/elsewhere")
    assert code == EXIT_UNTRACKED and status == [f"rank_0_exit_{EXIT_UNTRACKED}"]
    assert "|" not in logs["std_log.txt"] and "not inside the job's cgroup" in logs["std_log.txt"]


def test_a_rank_that_cannot_enter_its_working_directory_never_runs_its_command(tmp_path, runner):
    code, err, logs, status, _ = _rank(tmp_path, runner, workdir=str(tmp_path / "gone"))
    assert code == EXIT_NO_WORKDIR and str(tmp_path / "gone") in err
    assert logs == {} and status == []
