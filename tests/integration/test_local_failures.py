"""A failing rank, a timeout, cancel() and Ctrl-C/SIGTERM on the driver end every rank of a local run."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
import uuid

import pytest

from acpt_estimator import Mpi, PyTorch
from acpt_estimator.backends.local import get_run
from acpt_estimator.backends.local.procs import job_pids, pids_with_env
from acpt_estimator.exceptions import ActivityFailedException
from acpt_estimator.v1.core.experiment import Experiment
from acpt_estimator.v1.core.workspace import Workspace

pytestmark = pytest.mark.integration

# --fail <rank>:<exit|raise>  makes that rank fail after a moment; every other rank sleeps for a minute.
# --stubborn  makes rank 1 ignore SIGTERM; --grandchild makes rank 0 leave a detached `sleep` behind.
JOB = textwrap.dedent("""
    import argparse, os, signal, subprocess, sys, time
    parser = argparse.ArgumentParser()
    parser.add_argument("--fail", default="")
    parser.add_argument("--stubborn", action="store_true")
    parser.add_argument("--grandchild", action="store_true")
    args = parser.parse_args()
    rank = int(os.environ["RANK"])
    if args.stubborn and rank == 1:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if args.grandchild and rank == 0:
        subprocess.Popen(["sleep", "300"], start_new_session=True)
    print(f"ready {rank}", flush=True)
    if args.fail:
        failing, how = args.fail.split(":")
        if rank == int(failing):
            time.sleep(0.3)
            print("about to fail", flush=True)
            if how == "raise":
                raise ValueError(f"boom from rank {rank}")
            sys.exit(3)
    time.sleep(60)
""")


@pytest.fixture
def job(tmp_path, monkeypatch):
    monkeypatch.setenv("ACPT_ESTIMATOR_HOME", str(tmp_path / "store"))
    source = tmp_path / "src"
    source.mkdir()
    (source / "job.py").write_text(JOB)
    experiment = Experiment(Workspace._local(), "failures")

    def submit(*params, ranks=2, **kw):
        est = PyTorch(str(source), entry_script="job.py", compute_target="local",
                      distributed_training=Mpi(ranks), script_params=list(params), **kw)
        return experiment.submit(est)

    return submit


def _wait_ready(run, ranks, timeout=30):
    deadline = time.monotonic() + timeout
    logs = [os.path.join(run.path, "files", "user_logs", f"std_log_process_{r}.txt") for r in range(ranks)]
    while time.monotonic() < deadline:
        if all(os.path.exists(p) and "ready" in open(p).read() for p in logs):
            return
        time.sleep(0.05)
    raise AssertionError(f"ranks of {run.id} never became ready")


@pytest.mark.parametrize("how, rank, code, text", [("exit", 1, 3, "about to fail"),
                                                    ("raise", 0, 1, "ValueError: boom from rank 0")])
def test_first_failing_rank_ends_the_others_and_is_reported(job, how, rank, code, text):
    run = job("--fail", f"{rank}:{how}", ranks=3)
    start = time.monotonic()
    with pytest.raises(ActivityFailedException) as err:
        run.wait_for_completion()
    assert time.monotonic() - start < 10  # the others sleep for 60 s: they were ended
    assert (err.value.rank, err.value.exit_code) == (rank, code)
    message = err.value.message
    assert message.startswith("Activity Failed:\n")
    assert f"Rank {rank} (node 0, local rank {rank}) failed first with exit code {code}" in message
    assert text in message and f"user_logs/std_log_process_{rank}.txt" in message
    assert run.get_status() == "Failed"
    assert run.get_details()["error"]["error"]["rank"] == rank
    assert job_pids(run.id) == []


def test_raise_on_error_false_returns_the_failed_details(job):
    run = job("--fail", "0:exit", ranks=1)
    details = run.wait_for_completion(raise_on_error=False)
    assert details["status"] == "Failed" and details["error"]["error"]["exitCode"] == 3
    assert "user_logs/std_log.txt" in details["logFiles"]


def test_max_run_duration_seconds_ends_the_run(job):
    run = job(max_run_duration_seconds=2)
    start = time.monotonic()
    with pytest.raises(ActivityFailedException, match="max_run_duration_seconds=2"):
        run.wait_for_completion()
    assert 1.5 < time.monotonic() - start < 8
    assert run.get_status() == "Canceled"
    assert job_pids(run.id) == []


def test_cancel_ends_every_rank_even_one_ignoring_sigterm_and_a_detached_grandchild(job):
    run = job("--stubborn", "--grandchild")
    _wait_ready(run, 2)
    assert len(job_pids(run.id)) >= 3
    start = time.monotonic()
    run.cancel()
    details = run.wait_for_completion()  # a user cancel is not an error
    assert details["status"] == "Canceled" and "error" not in details
    assert time.monotonic() - start < 8
    assert job_pids(run.id) == []


def test_cancel_from_another_process_reaches_the_supervising_driver(job, tmp_path):
    run = job()
    _wait_ready(run, 2)
    code = f"from acpt_estimator.backends.local import get_run; get_run({run.id!r}).cancel()"
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60,
                   env=dict(os.environ, ACPT_ESTIMATOR_HOME=str(tmp_path / "store")))
    assert run.wait_for_completion()["status"] == "Canceled"
    assert get_run(run.id).get_status() == "Canceled"
    assert job_pids(run.id) == []


DRIVER = textwrap.dedent("""
    import sys
    from acpt_estimator import Mpi, PyTorch
    from acpt_estimator.v1.core.experiment import Experiment
    from acpt_estimator.v1.core.workspace import Workspace
    experiment = Experiment(Workspace.from_config(), "interrupted")
    run = experiment.submit(PyTorch("src", entry_script="job.py", compute_target="cpu-cluster",
                                    distributed_training=Mpi(2), script_params=["--stubborn"]))
    print("RUN", run.id, flush=True)
    run.wait_for_completion(show_output=True)
""")


# Submitted and streamed from a worker thread (like a local HyperDrive scheduler); Ctrl-C hits the main thread.
THREAD_DRIVER = textwrap.dedent("""
    import threading, time
    from acpt_estimator import Mpi, PyTorch
    from acpt_estimator.v1.core.experiment import Experiment
    from acpt_estimator.v1.core.workspace import Workspace
    def work():
        run = Experiment(Workspace.from_config(), "interrupted").submit(PyTorch(
            "src", entry_script="job.py", compute_target="local", distributed_training=Mpi(2)))
        print("RUN", run.id, flush=True)
        run.wait_for_completion(show_output=True)
    threading.Thread(target=work, daemon=True).start()
    time.sleep(60)
""")


@pytest.mark.parametrize("driver, signum", [(DRIVER, signal.SIGINT), (DRIVER, signal.SIGTERM),
                                            (THREAD_DRIVER, signal.SIGINT)], ids=["sigint", "sigterm", "thread"])
def test_ctrl_c_or_sigterm_on_the_driver_ends_every_rank(job, tmp_path, driver, signum):
    """The driver runs as its own process with ACPT_ESTIMATOR_TARGET=local and no config.json."""
    (tmp_path / "driver.py").write_text(driver)
    marker = uuid.uuid4().hex
    env = dict(os.environ, ACPT_ESTIMATOR_TARGET="local", ACPT_ESTIMATOR_HOME=str(tmp_path / "store"),
               ACPT_TEST_MARKER=marker)
    driver = subprocess.Popen([sys.executable, "driver.py"], cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
    lines = []
    for line in driver.stdout:  # the rank-0 log is streamed live: "ready 0" arrives while the job runs
        lines.append(line)
        if line.startswith("ready 0"):
            break
    assert len(pids_with_env("ACPT_TEST_MARKER", marker)) >= 3, lines
    start = time.monotonic()
    driver.send_signal(signum)
    out, _ = driver.communicate(timeout=30)
    assert time.monotonic() - start < 10
    assert driver.returncode != 0
    assert pids_with_env("ACPT_TEST_MARKER", marker) == []
    run_id = next(line.split()[1] for line in lines if line.startswith("RUN "))
    assert get_run(run_id, store_home=str(tmp_path / "store")).get_status() == "Canceled"


NESTED = textwrap.dedent("""
    from acpt_estimator import Mpi, PyTorch
    from acpt_estimator.v1.core.experiment import Experiment
    from acpt_estimator.v1.core.workspace import Workspace
    inner = PyTorch(".", entry_script="job.py", compute_target="local", distributed_training=Mpi(2))
    run = Experiment(Workspace._local(), "inner").submit(inner)
    print("inner", run.id, flush=True)
    run.wait_for_completion()
""")


def test_cancelling_a_job_also_ends_a_local_job_started_from_inside_it(job, tmp_path, monkeypatch):
    (tmp_path / "src" / "nested.py").write_text(NESTED)
    marker = uuid.uuid4().hex
    monkeypatch.setenv("ACPT_TEST_MARKER", marker)  # inherited by the outer job, the inner driver and its ranks
    outer = Experiment(Workspace._local(), "outer").submit(
        PyTorch(str(tmp_path / "src"), entry_script="nested.py", compute_target="local"))
    log = os.path.join(outer.path, "files", "user_logs", "std_log.txt")
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not (
            os.path.exists(log) and "inner" in open(log).read()  # the inner job was submitted
            and len(pids_with_env("ACPT_TEST_MARKER", marker)) >= 5):  # outer sh+python, inner mpiexec...
        time.sleep(0.05)
    assert "inner" in open(log).read()
    outer.cancel()
    assert outer.wait_for_completion()["status"] == "Canceled"
    assert pids_with_env("ACPT_TEST_MARKER", marker) == []


def test_a_snapshot_refused_while_the_launcher_starts_leaves_nothing(job, tmp_path, monkeypatch):
    """mpiexec starts before the snapshot is checked (job.start): a refused one (a .env file) ends the held job with
    SnapshotException, before anything of the user's ran, and neither a run folder nor a process is left."""
    from acpt_estimator.backends.local import job as local_job
    from acpt_estimator.backends.local.launch import marker
    from acpt_estimator.exceptions import SnapshotException

    launched = []
    launch_first = local_job._launch_first
    monkeypatch.setattr(local_job, "_launch_first", lambda job_, *a: launched.append(job_) or launch_first(job_, *a))
    (tmp_path / "src" / ".env").write_text("API_KEY=hunter2\n")
    with pytest.raises(SnapshotException, match=r"\.env"):
        job()
    (held,) = launched
    assert held.supervisor.process.returncode is not None  # it was started, then ended and reaped
    assert pids_with_env(*marker(held.record["runId"])) == []
    runs = tmp_path / "store" / "runs"
    assert not runs.exists() or os.listdir(runs) == []


def test_a_view_that_cannot_be_made_once_the_launcher_runs_ends_it_and_leaves_nothing(job, tmp_path, monkeypatch):
    """The job's binds are made in its namespace once mpiexec runs there (Supervisor.bind), before the gate opens: one
    that fails ends the held job with the bind's reason, and neither a process nor a run folder is left."""
    from acpt_estimator.backends.local import job as local_job
    from acpt_estimator.backends.local.inputs import Mount
    from acpt_estimator.backends.local.launch import marker
    from acpt_estimator.exceptions import ExperimentExecutionException

    if not local_job._store_view_applies(str(tmp_path / "store")):
        pytest.skip("needs root with CAP_SYS_ADMIN (the read-only store view)")
    launched = []
    launch_first = local_job._launch_first
    monkeypatch.setattr(local_job, "_launch_first", lambda job_, *a: launched.append(job_) or launch_first(job_, *a))
    missing = tmp_path / "gone"
    monkeypatch.setattr(local_job, "_store_view_mounts", lambda *a: (Mount(str(missing), str(tmp_path / "src")),))
    with pytest.raises(ExperimentExecutionException, match=f"read-only view could not be made.*{missing}"):
        job()
    (held,) = launched
    assert held.supervisor.process is None  # ended and reaped by the watcher
    assert pids_with_env(*marker(held.record["runId"])) == []
    runs = tmp_path / "store" / "runs"
    assert not runs.exists() or os.listdir(runs) == []


def test_a_submission_that_fails_after_its_launcher_was_asked_for_leaves_nothing(job, tmp_path, monkeypatch):
    """The launcher's process is asked of the spawn server early in job.start (request_launcher), before the run's
    record is made: a failure in between ends that waiting process unused, and leaves no cgroup or run folder."""
    from acpt_estimator.backends.local import job as local_job

    asked = []
    request = local_job.request_launcher

    def recording_request(tracker, *args):
        waiting = request(tracker, *args)
        asked.append((tracker, waiting))
        return waiting

    def failing_record(*args):
        raise RuntimeError("the record could not be made")

    monkeypatch.setattr(local_job, "request_launcher", recording_request)
    monkeypatch.setattr(local_job, "_initial_record", failing_record)
    with pytest.raises(RuntimeError, match="record could not be made"):
        job()
    ((tracker, waiting),) = asked
    if waiting is None:
        pytest.skip("no spawn server here (it needs a writable cgroup v2 hierarchy and a C compiler)")
    assert waiting._report is None  # ended and reaped (Waiting.cancel)
    assert not os.path.exists(tracker.birth_cgroup())  # the cgroup the server made for it is gone
    runs = tmp_path / "store" / "runs"
    assert not runs.exists() or os.listdir(runs) == []


def test_a_run_whose_preparation_fails_after_the_launcher_started_leaves_nothing(job, tmp_path, monkeypatch):
    """The snapshot is copied while mpiexec starts, its ranks held at the gate: when that copy fails (here: made to
    fail), the held job is ended, nothing of the user's ran, and neither a run folder nor a process is left."""
    from acpt_estimator.backends.local import job as local_job

    from acpt_estimator.backends.local.launch import marker

    started = []

    def failing_prepare(job_, *args):
        deadline = time.monotonic() + 10
        while job_.supervisor.process is None and time.monotonic() < deadline:
            time.sleep(0.001)  # the watcher starts mpiexec while this runs
        started.append(job_)
        raise OSError(28, "No space left on device", str(tmp_path / "store"))

    monkeypatch.setattr(local_job, "_prepare", failing_prepare)
    with pytest.raises(Exception, match="disk is full"):
        job()
    (held,) = started
    assert held.supervisor.process.returncode is not None  # it was started, then ended and reaped
    assert pids_with_env(*marker(held.record["runId"])) == []  # no rank, no shell of the job is left
    assert not os.path.exists(held.tracker.describe().get("path") or "/nonexistent")  # its cgroup is gone too
    runs = tmp_path / "store" / "runs"
    assert not runs.exists() or os.listdir(runs) == []
