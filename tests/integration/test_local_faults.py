"""Local runs under faults (issue 16): a finished job finishes, nothing outlives it, every run tells the truth.

Each test checks the final status, the collected outputs, and that no process of the job remains, found by
a unique token in process command lines: independent of the cgroup/subreaper the runner tracks them with.
"""

from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
import uuid

import pytest

from acpt_estimator import Mpi, PyTorch
from acpt_estimator.backends.local import get_run, launch
from acpt_estimator.backends.local.procs import TRACKING_VAR
from acpt_estimator.exceptions import ActivityFailedException, ExperimentExecutionException
from acpt_estimator.v1.core.experiment import Experiment
from acpt_estimator.v1.core.workspace import Workspace

pytestmark = pytest.mark.integration
REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), os.pardir, os.pardir))
FINAL = ("Completed", "Failed", "Canceled")


def token_pids(token: str) -> list[int]:
    """Processes whose command line holds ``token`` (every process a test job starts carries it)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit() and int(entry) != os.getpid():
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as handle:
                    if token.encode() in handle.read():
                        found.append(int(entry))
            except OSError:
                continue
    return found


def no_process_left(token: str, timeout: float = 5.0) -> bool:
    deadline = time.monotonic() + timeout
    while token_pids(token):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


# The job: checks ./outputs and ./logs exist before it writes anything, writes outputs/rank_<r>.txt,
# then does what --mode says. Every process it starts has the token in its command line.
JOB = textwrap.dedent("""
    import os, subprocess, sys, time
    mode, token = sys.argv[1], sys.argv[2]
    rank = os.environ["RANK"]
    sleeper = [sys.executable, "-c", "import time; time.sleep(300)", token]
    with open(f"outputs/rank_{rank}.txt", "w") as handle:
        handle.write(f"{os.path.isdir('outputs')} {os.path.isdir('logs')}")
    if mode == "nohup":
        os.system("nohup " + " ".join(sleeper) + " >/dev/null 2>&1 &")
    if mode in ("escape", "escape-wait"):
        subprocess.Popen(["setsid", "env", "-i"] + sleeper, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if mode == "late-output" and rank == "0":  # a child that writes an output when it is ended, after the ranks
        late = ("import os, signal, sys, time\\n"
                "def ended(*_):\\n    open('outputs/late.txt', 'w').write('late'); os._exit(0)\\n"
                "signal.signal(signal.SIGTERM, ended)\\nprint('armed', flush=True)\\ntime.sleep(300)\\n")
        child = subprocess.Popen([sys.executable, "-c", late, token], stdout=subprocess.PIPE, start_new_session=True)
        assert child.stdout.readline() == b"armed\\n"
    print("ready", rank, flush=True)
    if mode in ("wait", "escape-wait"):
        time.sleep(300)
""")


@pytest.fixture
def store(tmp_path, monkeypatch):
    monkeypatch.setenv("ACPT_ESTIMATOR_HOME", str(tmp_path / "store"))
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "job.py").write_text(JOB)
    return tmp_path


def submit(store, mode, token, ranks=2, **kw):
    est = PyTorch(str(store / "src"), entry_script="job.py", compute_target="local", distributed_training=Mpi(ranks),
                  script_params=[mode, token], **kw)
    return Experiment(Workspace._local(), "faults").submit(est)


def wait_ready(run, ranks=2, timeout=30):
    logs = [os.path.join(run.path, "files", "user_logs", f"std_log_process_{r}.txt") for r in range(ranks)]
    deadline = time.monotonic() + timeout
    while not all(os.path.exists(p) and "ready" in open(p).read() for p in logs):
        assert time.monotonic() < deadline, f"ranks of {run.id} never became ready"
        time.sleep(0.05)


def assert_outputs(run, ranks=2):
    names = run.get_file_names()
    for rank in range(ranks):
        assert f"outputs/rank_{rank}.txt" in names
        with open(os.path.join(run.path, "files", "outputs", f"rank_{rank}.txt")) as handle:
            assert handle.read() == "True True"  # ./outputs and ./logs existed before the script wrote


def driver_env(store) -> dict:
    return dict(os.environ, ACPT_ESTIMATOR_HOME=str(store / "store"),
                PYTHONPATH=os.pathsep.join([REPO, os.path.join(REPO, "compat")]))


def run_driver(store, code, *prefix, args=(), timeout=120, stdout=subprocess.PIPE):
    """Runs ``code`` as driver.py in its own process (optionally under ``prefix``, e.g. capsh or unshare)."""
    (store / "driver.py").write_text(textwrap.dedent(code))
    return subprocess.run([*prefix, sys.executable, "driver.py", *args], cwd=store, env=driver_env(store),
                          stdout=stdout, stderr=subprocess.PIPE, text=True, timeout=timeout)


# ---- 1. a background child does not hang the job --------------------------------------------------
@pytest.mark.parametrize("shell", ["bash", "sh"])
def test_a_nohup_child_neither_hangs_the_job_nor_outlives_it(store, monkeypatch, shell):
    """bash closes every inherited descriptor; with /bin/sh (dash: fds 3-9 only) the child keeps the launcher's
    pipes and mpiexec waits on it: the job still ends once every rank has reported its exit."""
    if shell == "sh":
        monkeypatch.setattr(launch, "RANK_SHELL", "/nonexistent/bash")
    token = uuid.uuid4().hex
    start = time.monotonic()
    run = submit(store, "nohup", token)
    assert run.wait_for_completion()["status"] == "Completed"
    assert time.monotonic() - start < 20
    assert_outputs(run)
    assert no_process_left(token)


# ---- 2. processes that shed their session and environment are still the job's ---------------------
@pytest.mark.parametrize("tracking", ["cgroup", "subreaper"])
@pytest.mark.parametrize("ending", ["completion", "cancel", "timeout"])
def test_a_daemon_that_clears_its_environment_ends_with_the_job(store, monkeypatch, tracking, ending):
    if tracking == "subreaper":
        monkeypatch.setenv(TRACKING_VAR, "subreaper")
    token = uuid.uuid4().hex
    if ending == "completion":
        run = submit(store, "escape", token)
        assert run.wait_for_completion()["status"] == "Completed"
    elif ending == "cancel":
        run = submit(store, "escape-wait", token)
        wait_ready(run)
        run.cancel()
        assert run.wait_for_completion()["status"] == "Canceled"
    else:
        run = submit(store, "escape-wait", token, max_run_duration_seconds=3)
        with pytest.raises(ActivityFailedException, match="max_run_duration_seconds=3"):
            run.wait_for_completion()
        assert run.get_status() == "Canceled"
    assert run._record()["tracking"]["kind"] == tracking
    assert_outputs(run)
    assert no_process_left(token)


def test_what_a_left_over_process_writes_as_it_is_ended_is_collected(store):
    """Every rank completed, so the run's final record is made while the launcher ends; a process the ranks left
    behind is ended only after the launcher, and what it writes into ./outputs then is still the run's."""
    token = uuid.uuid4().hex
    run = submit(store, "late-output", token)
    assert run.wait_for_completion()["status"] == "Completed"
    assert_outputs(run)
    assert "outputs/late.txt" in run.get_file_names()
    with open(run._paths.run_json) as handle:
        assert json.load(handle)["status"] == "Completed"
    assert not [name for name in os.listdir(run.path) if name.endswith(".tmp")]  # no staged record left over
    assert no_process_left(token)


# ---- 3. a killed driver: the job ends with it, and a reopened run tells the truth -----------------
KILLED_DRIVER = """
    import sys
    from acpt_estimator import Mpi, PyTorch
    from acpt_estimator.v1.core.experiment import Experiment
    from acpt_estimator.v1.core.workspace import Workspace
    run = Experiment(Workspace._local(), "killed").submit(PyTorch(
        "src", entry_script="job.py", compute_target="local", distributed_training=Mpi(2),
        script_params=["escape-wait", sys.argv[1]]))
    print("RUN", run.id, flush=True)
    run.wait_for_completion()
"""


@pytest.mark.parametrize("signum, status", [(signal.SIGKILL, "Failed"), (signal.SIGHUP, "Canceled")])
def test_a_killed_driver_takes_its_job_along_and_the_reopened_run_is_final(store, signum, status):
    token = uuid.uuid4().hex
    (store / "driver.py").write_text(textwrap.dedent(KILLED_DRIVER))
    driver = subprocess.Popen([sys.executable, "driver.py", token], cwd=store, env=driver_env(store),
                              stdout=subprocess.PIPE, text=True)
    run_id = driver.stdout.readline().split()[1]
    run = get_run(run_id)
    wait_ready(run)
    driver.send_signal(signum)
    driver.wait(timeout=30)
    assert no_process_left(token)  # the job ended with its driver: nothing runs on unsupervised
    # What a driver killed between staging its run's final record and committing it leaves (LocalJob._ranks_done).
    staged = os.path.join(run.path, f".run.json.{driver.pid}.abcd1234.tmp")
    with open(staged, "w") as handle:
        handle.write("{}")
    deadline = time.monotonic() + 15
    while run.get_status() not in FINAL:
        assert time.monotonic() < deadline
        time.sleep(0.1)
    assert run.get_status() == status
    if signum == signal.SIGKILL:
        message = run.get_details()["error"]["error"]["message"]
        assert f"driver process (pid {driver.pid})" in message and "Local runs end with their driver" in message
        assert not os.path.exists(staged)  # the one who finished the run removed the dead driver's temporaries
    assert_outputs(run)
    assert _mlflow_copy(run).info.status == {"Failed": "FAILED", "Canceled": "KILLED"}[status]


def _mlflow_copy(run):
    """The run's MLflow run, read by MLflow's client after the workspace's MLflow URI copied it in."""
    from mlflow.tracking import MlflowClient

    client = MlflowClient(tracking_uri=Workspace._local().get_mlflow_tracking_uri())
    found = client.search_runs([client.get_experiment_by_name(run._record()["experimentName"]).experiment_id],
                               f"tags.`azureml.runid` = '{run.id}'")
    assert len(found) == 1
    return found[0]


def test_a_reopened_run_is_running_while_its_ranks_live_then_final_with_its_outputs(store):
    """Without a parent-death signal (no setpriv) ranks outlive a dead driver: the record must say so."""
    from acpt_estimator.backends.local.launch import marker
    from acpt_estimator.backends.local.store import write_json

    token = uuid.uuid4().hex
    run_id = f"faults_1_{token[:8]}"
    root = store / "store" / "runs" / run_id
    for sub in ("status", "files", "snapshot/outputs"):
        (root / sub).mkdir(parents=True)
    (root / "snapshot" / "outputs" / "model.txt").write_text("weights")
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    write_json(str(root / "run.json"), {
        "runId": run_id, "experimentName": "faults", "status": "Running", "createdTime": time.time(),
        "startTime": time.time(), "supervisor": {"pid": gone.pid, "startTicks": None},
        "tracking": {"kind": "subreaper"},
        "runDefinition": {"pyTorch": {"processCount": 1}, "mpi": {"processCountPerNode": 1}}})
    name, value = marker(run_id)
    rank = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)", token],
                            env=dict(os.environ, **{name: value}))
    try:
        run = get_run(run_id)
        assert run.get_status() == "Running"  # its rank still lives
        rank.kill()
        rank.wait()
        assert run.get_status() == "Failed"
        assert "ended before the run finished (0 of 1 rank(s)" in run.get_details()["error"]["error"]["message"]
        assert "outputs/model.txt" in run.get_file_names()
        assert json.loads((root / "run.json").read_text())["status"] == "Failed"  # finished once, for every reader
    finally:
        rank.kill()
    assert no_process_left(token)


# ---- 4. read-only inputs as root without CAP_SYS_ADMIN --------------------------------------------
MOUNT_DRIVER = """
    import json
    from acpt_estimator import PyTorch
    from acpt_estimator.backends.local.inputs import bind_mounts_available
    from acpt_estimator.v1.core.experiment import Experiment
    from acpt_estimator.v1.core.workspace import Workspace
    ws = Workspace._local()
    ds = ws.get_default_datastore()
    ds.upload(src_dir="data", target_path="data", show_progress=False)
    run = Experiment(ws, "mount").submit(PyTorch("src", entry_script="read.py", compute_target="local",
                                                 script_params={"--data": ds.path("data").as_mount()}))
    details = run.wait_for_completion()
    with open(run.path + "/files/outputs/seen.json") as handle:
        print(json.dumps({"bind": bind_mounts_available(), "status": details["status"], "seen": json.load(handle)}))
"""
READ = textwrap.dedent("""
    import json, os, sys
    path = sys.argv[2]
    seen = {"text": open(os.path.join(path, "a.txt")).read()}
    try:
        open(os.path.join(path, "a.txt"), "w").write("changed")
        seen["write"] = "allowed"
    except OSError as err:
        seen["write"] = type(err).__name__
    json.dump(seen, open("outputs/seen.json", "w"))
""")


def test_mounts_as_root_without_cap_sys_admin_fall_back_to_a_read_only_copy(store):
    (store / "src" / "read.py").write_text(READ)
    (store / "data").mkdir()
    (store / "data" / "a.txt").write_text("alpha")
    done = run_driver(store, MOUNT_DRIVER, "capsh", "--drop=cap_sys_admin", "--", "-c", 'exec "$0" "$@"')
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["bind"] is False and result["status"] == "Completed"
    assert result["seen"]["text"] == "alpha"
    # Root ignores file modes: the copy is the job's own, the datastore folder is untouched.
    assert open(store / "store" / "datastores" / "workspaceblobstore" / "data" / "a.txt").read() == "alpha"
    assert no_process_left(str(store / "src"))


# ---- 5. a sweep submitted without waiting runs to the end and can be reopened ---------------------
SWEEP_DRIVER = """
    import sys
    from acpt_estimator import Mpi, PyTorch
    from acpt_estimator.v1.core.experiment import Experiment
    from acpt_estimator.v1.core.workspace import Workspace
    from acpt_estimator.v1.train.hyperdrive.parameter_expressions import choice
    from acpt_estimator.v1.train.hyperdrive.policy import PrimaryMetricGoal
    from acpt_estimator.v1.train.hyperdrive.runconfig import HyperDriveConfig
    from acpt_estimator.v1.train.hyperdrive.sampling import GridParameterSampling
    est = PyTorch("src", entry_script="trial.py", compute_target="local", script_params=["--token", sys.argv[1]])
    config = HyperDriveConfig(estimator=est, hyperparameter_sampling=GridParameterSampling({"--lr": choice(1, 2, 3)}),
                              primary_metric_name="score", primary_metric_goal=PrimaryMetricGoal.MAXIMIZE,
                              max_total_runs=3, max_concurrent_runs=1)
    run = Experiment(Workspace._local(), "sweep").submit(config)
    print("RUN", run.id, flush=True)
"""
TRIAL = textwrap.dedent("""
    import argparse
    from azureml.core import Run
    parser = argparse.ArgumentParser()
    parser.add_argument("--lr", type=float)
    parser.add_argument("--token")
    args = parser.parse_args()
    Run.get_context().log("score", args.lr * 10)
    open("outputs/lr.txt", "w").write(str(args.lr))
""")


def test_a_sweep_submitted_without_waiting_runs_every_trial_and_is_saved(store):
    token = uuid.uuid4().hex
    (store / "src" / "trial.py").write_text(TRIAL)
    done = run_driver(store, SWEEP_DRIVER, args=[token], timeout=180)
    assert done.returncode == 0, done.stderr
    sweep = get_run(done.stdout.split()[1])
    assert sweep.get_status() == "Completed"
    children = list(sweep.get_children())
    assert len(children) == 3 and {c.get_status() for c in children} == {"Completed"}
    assert sorted(c.get_metrics()["score"] for c in children) == [10, 20, 30]
    best = sweep.get_best_run_by_primary_metric()
    assert best.get_metrics()["score"] == 30 and json.loads(sweep.get_hyperparameters()[best.id]) == {"--lr": 3}
    assert all("outputs/lr.txt" in c.get_file_names() for c in children)
    assert no_process_left(token)


# ---- 6. metric names that nest or are empty never abort the MLflow export -------------------------
METRICS = textwrap.dedent("""
    import sys
    from azureml.core import Run
    run = Run.get_context()
    for name, value in (("loss", 1.0), ("loss/val", 2.0), ("", 3.0), ("Accuracy (%)", 4.0), ("Accuracy ___", 5.0)):
        run.log(name, value)
    open("outputs/done.txt", "w").write(sys.argv[1])
""")


def test_nested_and_empty_metric_names_are_all_exported_and_the_mlflow_run_finishes(store):
    token = uuid.uuid4().hex
    (store / "src" / "metrics.py").write_text(METRICS)
    run = Experiment(Workspace._local(), "names").submit(PyTorch(
        str(store / "src"), entry_script="metrics.py", compute_target="local", script_params=[token]))
    details = run.wait_for_completion()
    assert details["status"] == "Completed" and not details.get("warnings")
    assert run.get_metrics() == {"loss": 1.0, "loss/val": 2.0, "": 3.0, "Accuracy (%)": 4.0, "Accuracy ___": 5.0}
    mlrun = _mlflow_copy(run)
    assert mlrun.info.status == "FINISHED"
    # Names MLflow refuses ("", parentheses) are kept as record tags by the one v1 record form
    # (job_runtime/_v1_records.py); in MLflow's SQLite store loss and loss/val are both plain keys.
    assert mlrun.data.metrics == {"loss": 1.0, "loss/val": 2.0, "Accuracy ___": 5.0}
    assert run.get_metrics() == {"loss": 1.0, "loss/val": 2.0, "": 3.0, "Accuracy (%)": 4.0, "Accuracy ___": 5.0}
    assert "outputs/done.txt" in run.get_file_names()
    assert no_process_left(token)


# ---- 7. a launcher that starts no rank is a failure ----------------------------------------------
FAKE_MPIEXEC = """#!/bin/sh
case "$1" in --version) echo "HYDRA build details:"; echo "    Version:                                 4.2.0";; esac
exit 0
"""


@pytest.mark.parametrize("used", [False, True], ids=["new-store", "used-store"])
def test_a_launcher_that_starts_no_rank_fails(store, monkeypatch, used):
    """Also where it ends while its run folder is still to be made behind the gate (a used store: folder_later)."""
    if used:
        (store / "store" / "runs").mkdir(parents=True)
    fake = store / "mpiexec"
    fake.write_text(FAKE_MPIEXEC)
    fake.chmod(0o755)
    monkeypatch.setenv("ACPT_ESTIMATOR_MPIEXEC", str(fake))
    token = uuid.uuid4().hex
    run = submit(store, "plain", token)
    with pytest.raises(ActivityFailedException, match=r"exited with code 0 after only 0 of 2 rank"):
        run.wait_for_completion()
    assert run.get_status() == "Failed" and run._record()["ranks"] == []
    assert not [n for n in run.get_file_names() if n.startswith("outputs/")]  # no rank ran, nothing to collect
    assert "system_logs/mpiexec.txt" in run.get_file_names()
    assert sorted(os.listdir(store / "store" / "runs")) == [os.path.basename(run.path)]  # its log under one name
    assert no_process_left(token)


# ---- 8. absurd rank counts are refused before anything is written --------------------------------
def test_absurd_rank_counts_are_refused_with_the_fix_and_leave_nothing(store):
    token = uuid.uuid4().hex
    with pytest.raises(ExperimentExecutionException) as err:
        submit(store, "plain", token, ranks=8, node_count=1000)
    message = err.value.message
    assert "8000 ranks" in message and "node_count=1000" in message and "ACPT_ESTIMATOR_MAX_LOCAL_RANKS" in message
    assert not os.path.exists(store / "store" / "runs") or os.listdir(store / "store" / "runs") == []
    assert no_process_left(token, timeout=0)


# ---- 9. a full disk, and failures before launch ----------------------------------------------------
DISK_DRIVER = """
    import json, os, sys
    from acpt_estimator import PyTorch
    from acpt_estimator.exceptions import ExperimentExecutionException
    from acpt_estimator.v1.core.experiment import Experiment
    from acpt_estimator.v1.core.workspace import Workspace
    store = os.environ["ACPT_ESTIMATOR_HOME"]
    exp = Experiment(Workspace._local(), "disk")
    def listing():
        return sorted(os.path.relpath(os.path.join(d, n), store) for d, _, ns in os.walk(store) for n in ns)
    result = {}
    try:  # the snapshot does not fit
        exp.submit(PyTorch("big", entry_script="fill.py", compute_target="local"))
    except ExperimentExecutionException as err:
        result["prelaunch"] = {"error": err.message, "files": listing()}
    run = exp.submit(PyTorch("src", entry_script="fill.py", compute_target="local", script_params=[sys.argv[1]]))
    details = run.wait_for_completion(raise_on_error=False)
    result["run"] = {"status": details["status"], "error": details["error"]["error"]["message"],
                     "record": json.load(open(os.path.join(run.path, "run.json")))["status"],
                     "files": listing()}
    print(json.dumps(result))
"""
FILL = textwrap.dedent("""
    import sys
    with open("outputs/fill.bin", "wb") as handle:
        for _ in range(64):
            handle.write(b"x" * (1 << 20))  # far more than the disk holds
""")


def test_a_full_disk_is_named_and_leaves_no_half_written_run(store):
    token = uuid.uuid4().hex
    (store / "src" / "fill.py").write_text(FILL)
    (store / "big").mkdir()
    (store / "big" / "fill.py").write_text(FILL)
    (store / "big" / "weights.bin").write_bytes(b"w" * (6 << 20))
    (store / "store").mkdir()
    # A private mount namespace with a 4 MiB store: the test's machine is left alone.
    done = run_driver(store, DISK_DRIVER, "unshare", "--mount", "--propagation", "private", "--", "/bin/sh", "-c",
                      'mount -t tmpfs -o size=4m tmpfs "$0" && exec "$@"', str(store / "store"), args=[token])
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    pre = result["prelaunch"]
    assert "the disk is full" in pre["error"] and "No space left on device" in pre["error"]
    assert not [f for f in pre["files"] if f.startswith("runs/")]  # no half-written run folder
    assert "mlflow.db" not in pre["files"]  # no RUNNING MLflow run (a job not using MLflow gets none at launch)
    run = result["run"]
    assert run["status"] == run["record"] == "Failed"
    assert "is full" in run["error"]
    assert not [f for f in run["files"] if f.endswith(".tmp")]
    assert [f for f in run["files"] if f.endswith("files/outputs/fill.bin")]  # what was written is collected
    assert "mlflow.db" not in run["files"]  # no MLflow run left RUNNING: copied in, final, when MLflow is asked for
    assert no_process_left(token)


def _interrupt_mid_snapshot(monkeypatch):
    from acpt_estimator.backends.local import job

    real = job.copy_snapshot

    def copy_then_ctrl_c(*args, **kwargs):
        real(*args, **kwargs)
        raise KeyboardInterrupt

    monkeypatch.setattr(job, "copy_snapshot", copy_then_ctrl_c)


def _refuse_the_launch_plan(monkeypatch):
    """After the job's cgroup is made and the spawn server asked for its launcher's process (Supervisor.prepare)."""
    from acpt_estimator.backends.local import cgroup_spawn, job

    cgroup_spawn.build()  # (where it can be built: its server then makes the launcher's process ahead)

    def refused(*args, **kwargs):
        deadline = time.monotonic() + 5  # once the launcher's process is in the job's cgroup, where there is one
        while cgroup_spawn.ready() and not _cgroup_members() and time.monotonic() < deadline:
            time.sleep(0.001)
        raise ExperimentExecutionException("the launch plan was refused (a stand-in)")

    monkeypatch.setattr(job, "plan_launcher", refused)


def _refuse_the_run_folder(monkeypatch):
    """The run folder cannot be made: after the job's cgroup is named, before mpiexec starts (a new store), or behind
    the gate, after mpiexec's start (a used store: job.start's folder_later)."""
    from acpt_estimator.backends.local.store import RunPaths

    def refused(self, ranks_later=False):
        raise PermissionError(errno.EACCES, "Permission denied (a stand-in)", self.root)

    monkeypatch.setattr(RunPaths, "create", refused)


def _job_cgroups() -> list:
    from acpt_estimator.backends.local.cgroup import driver_group, job_cgroups_usable

    base = job_cgroups_usable()
    group = driver_group(base) if base else None
    return [] if group is None or not os.path.isdir(group) else [
        os.path.join(group, name) for name in os.listdir(group) if os.path.isdir(os.path.join(group, name))]


def _cgroup_members() -> list:
    members = []
    for folder in _job_cgroups():
        with open(os.path.join(folder, "cgroup.procs"), encoding="utf-8") as handle:
            members += handle.read().split()
    return members


@pytest.mark.parametrize("used", [False, True], ids=["new-store", "used-store"])
@pytest.mark.parametrize("failure", ["dangling symlink", "Ctrl-C in the snapshot", "launch plan refused",
                                     "run folder refused"])
def test_a_run_that_cannot_start_leaves_nothing_behind(store, monkeypatch, failure, used):
    """In a store that holds runs already (its runs/ exists), the run folder is made behind the gate, after mpiexec's
    start, which logs beside it meanwhile (job.start, folder_later): that log goes too."""
    token = uuid.uuid4().hex
    if used:
        (store / "store" / "runs").mkdir(parents=True)
    if failure == "dangling symlink":
        os.symlink(store / "gone.py", store / "src" / "link.py")
        expected = pytest.raises(ExperimentExecutionException, match=r"dangling symbolic link .*link\.py")
    elif failure == "launch plan refused":
        _refuse_the_launch_plan(monkeypatch)
        expected = pytest.raises(ExperimentExecutionException, match="the launch plan was refused")
    elif failure == "run folder refused":
        _refuse_the_run_folder(monkeypatch)
        expected = pytest.raises(PermissionError, match="a stand-in")
    else:
        _interrupt_mid_snapshot(monkeypatch)
        expected = pytest.raises(KeyboardInterrupt)
    cgroups_before = _job_cgroups()
    with expected:
        submit(store, "plain", token)
    # The job's cgroup is gone: a launcher's process made ahead ended before it was removed (it was left behind, after
    # 2 s of retries, while that process still waited in it).
    assert _job_cgroups() == cgroups_before
    runs = store / "store" / "runs"  # a dangling link is refused before the store is touched at all
    assert not runs.exists() or os.listdir(runs) == []  # no half-written run folder
    assert not os.path.exists(store / "store" / "mlflow.db")  # no MLflow run either
    assert no_process_left(token, timeout=0)


# ---- 10. streaming a huge log reads it in bounded chunks ------------------------------------------
STREAM_DRIVER = """
    import resource, sys
    from acpt_estimator import PyTorch
    from acpt_estimator.v1.core.experiment import Experiment
    from acpt_estimator.v1.core.workspace import Workspace
    run = Experiment(Workspace._local(), "stream").submit(PyTorch(
        "src", entry_script="loud.py", compute_target="local", script_params=[sys.argv[1]]))
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    status = run.wait_for_completion(show_output=True)["status"]
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(status, before, after, file=sys.stderr)
"""
LOUD = textwrap.dedent("""
    import sys
    line = "y" * 1023 + "\\n"
    block = line * 1024
    for _ in range(200):  # 200 MB on stdout
        sys.stdout.write(block)
    open("outputs/done.txt", "w").write(sys.argv[1])
""")


def test_show_output_streams_a_200_mb_log_in_bounded_memory(store):
    token = uuid.uuid4().hex
    (store / "src" / "loud.py").write_text(LOUD)
    with open(os.devnull, "w") as sink:  # the driver streams 200 MB; the test keeps none of it
        done = run_driver(store, STREAM_DRIVER, args=[token], timeout=180, stdout=sink)
    assert done.returncode == 0, done.stderr
    status, before, after = done.stderr.split()[-3:]
    assert status == "Completed"
    assert int(after) - int(before) < 48 * 1024  # KiB: a few MB of chunks, never the 200 MB log
    run_dir = next(iter(os.scandir(store / "store" / "runs"))).path
    assert os.path.getsize(os.path.join(run_dir, "files", "user_logs", "std_log.txt")) >= 200 << 20
    assert os.path.exists(os.path.join(run_dir, "files", "outputs", "done.txt"))
    assert no_process_left(token)


def test_a_failed_submission_returns_only_once_its_cgroup_is_gone(store, monkeypatch):
    """The watcher removes a job's emptied cgroup after it sets ``done`` (a completing run's driver goes on meanwhile);
    a submission that fails behind the gate must not raise before that removal, or it leaves a cgroup behind."""
    from acpt_estimator.backends.local import cgroup

    remove = cgroup.CgroupTracker.release

    def slow_release(self):
        time.sleep(0.3)  # the removal comes late (a busy machine), as it did in 1 of ~30 runs of the test above
        remove(self)

    monkeypatch.setattr(cgroup.CgroupTracker, "release", slow_release)
    os.symlink(store / "gone.py", store / "src" / "link.py")
    cgroups_before = _job_cgroups()
    with pytest.raises(ExperimentExecutionException, match=r"dangling symbolic link"):
        submit(store, "plain", uuid.uuid4().hex)
    assert _job_cgroups() == cgroups_before
