"""Local jobs in spare run folders: made while a later job is submitted, claimed by the next, the same run to a reader."""

from __future__ import annotations

import os
import time

import pytest

from acpt_estimator import Mpi, PyTorch
from acpt_estimator.backends.local import rank_exec, spare_folders
from acpt_estimator.backends.local.store import SPARE_BUILDING_PREFIX
from acpt_estimator.v1.core.experiment import Experiment
from acpt_estimator.v1.core.workspace import Workspace

pytestmark = pytest.mark.integration
SCRIPT = ("import os, sys, time\nrank = int(os.environ['RANK'])\nprint('rank', rank)\n"
          "fail = os.environ.get('FAIL_RANK')\n"
          "if fail is not None:\n    time.sleep(0 if rank == int(fail) else 0.5)\n    sys.exit(3 if rank == int(fail) else 4)\n")


@pytest.fixture
def experiment(tmp_path, monkeypatch):
    monkeypatch.setenv("ACPT_ESTIMATOR_HOME", str(tmp_path / "store"))
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "job.py").write_text(SCRIPT)
    if rank_exec.build() is None:
        pytest.skip("needs a C compiler: spares are claimed only where the C rank launcher runs the ranks")
    return Experiment(Workspace._local(), "spares"), str(tmp_path / "src"), str(tmp_path / "store" / "runs")


def _estimator(source, ranks=2, **variables):
    return PyTorch(source, entry_script="job.py", compute_target="local", distributed_training=Mpi(ranks),
                   environment_variables=variables)


def _spares(runs) -> list:
    return sorted(name for name in os.listdir(runs) if name.startswith(".spare-"))


def _hidden_left(run) -> list:
    return [os.path.join(top, name) for top, folders, files in os.walk(run.path)
            for name in folders + files if name.startswith(".")]


def _submit(exp, estimator, raise_on_error=True):
    run = exp.submit(estimator)
    run.wait_for_completion(raise_on_error=raise_on_error)
    run._job.supervisor.wait_ended()  # (its watcher's last tidying done: the spare builder is idle by then)
    return run


def test_where_creations_are_slow_a_later_job_runs_in_a_spare_and_reads_as_any_run(experiment, monkeypatch):
    exp, source, runs = experiment
    monkeypatch.setattr(spare_folders, "SLOW_CREATION_SECONDS", 0.0)  # (this store counts as a slow one)
    made = [_submit(exp, _estimator(source)) for _ in range(3)]  # the store's first run; one wanting; one making
    assert [run._job.spare for run in made] == [False, False, False] and _spares(runs) == [".spare-1-0"]
    _age(os.path.join(runs, ".spare-1-0"), hours=1)  # (a spare another driver left an hour ago)
    claimed = _submit(exp, _estimator(source))
    assert claimed._job.spare  # (and the next spare was made while it was submitted)
    assert _spares(runs) == [".spare-1-0"]
    for run in (made[-1], claimed):
        details = run.get_details()
        assert details["status"] == "Completed"
        assert sorted(details["logFiles"]) == ["system_logs/mpiexec.txt", "user_logs/std_log_process_0.txt",
                                               "user_logs/std_log_process_1.txt"]
        assert sorted(os.listdir(run.path)) == ["files", "run.json", "snapshot", "status"]
        assert sorted(os.listdir(os.path.join(run.path, "status"))) == ["rank_0_exit_0", "rank_1_exit_0"]
        assert _hidden_left(run) == []
        with open(os.path.join(run.path, "files", "user_logs", "std_log_process_1.txt"), encoding="utf-8") as handle:
            assert handle.read() == "rank 1\n"
        for marker in os.scandir(os.path.join(run.path, "status")):  # the ranks' ends are ordered by these times
            assert time.time() - marker.stat().st_mtime < 60, marker.name


def _age(folder, hours) -> None:
    then = time.time() - hours * 3600
    for top, folders, files in os.walk(folder):
        for name in files:
            os.utime(os.path.join(top, name), (then, then), follow_symlinks=False)


def test_in_a_spare_the_rank_that_failed_first_is_named_and_nothing_is_left(experiment, monkeypatch):
    """A failing job in a spare names its rank and leaves none of the files made ahead, nor does a job with fewer
    ranks than its spare was made for."""
    exp, source, runs = experiment
    monkeypatch.setattr(spare_folders, "SLOW_CREATION_SECONDS", 0.0)
    for _ in range(3):
        _submit(exp, _estimator(source))
    _age(os.path.join(runs, ".spare-1-0"), hours=1)
    failed = _submit(exp, _estimator(source, FAIL_RANK="1"), raise_on_error=False)
    assert failed._job.spare
    details = failed.get_details()
    assert details["status"] == "Failed" and details["error"]["error"]["rank"] == 1
    assert _hidden_left(failed) == []
    fewer = _submit(exp, _estimator(source, ranks=1))  # a spare made for two ranks: one rank's files are left
    assert fewer._job.spare and fewer.get_details()["status"] == "Completed"
    assert _hidden_left(fewer) == [] and os.listdir(os.path.join(fewer.path, "status")) == ["rank_0_exit_0"]


def test_where_creations_are_fast_no_spare_is_made(experiment, monkeypatch):
    exp, source, runs = experiment
    monkeypatch.setattr(spare_folders, "SLOW_CREATION_SECONDS", 3600.0)
    runs_made = [_submit(exp, _estimator(source)) for _ in range(4)]
    assert not any(run._job.spare for run in runs_made) and _spares(runs) == []


def test_nothing_appears_in_the_store_once_a_waiting_caller_saw_its_job_end(experiment, monkeypatch):
    """A caller may remove a temporary store as soon as its last job is done: the spares are made while a job is
    submitted, never after one has ended."""
    exp, source, runs = experiment
    monkeypatch.setattr(spare_folders, "SLOW_CREATION_SECONDS", 0.0)
    for _ in range(5):
        run = exp.submit(_estimator(source))
        run.wait_for_completion()
        seen = sorted(os.listdir(runs))
        assert not [name for name in seen if name.startswith(SPARE_BUILDING_PREFIX)]
        time.sleep(0.2)
        assert sorted(os.listdir(runs)) == seen
