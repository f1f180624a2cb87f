"""A local job's end as its waiting driver sees it: the details made with the early final record."""

from __future__ import annotations

import os
import shutil

import pytest

from acpt_estimator import Mpi, PyTorch
from acpt_estimator.backends.local import job as local_job
from acpt_estimator.v1.core.experiment import Experiment
from acpt_estimator.v1.core.workspace import Workspace

pytestmark = pytest.mark.integration
SCRIPT = "from azureml.core import Run\nRun.get_context().add_properties({'seen': 'yes'})\nprint('done')\n"


@pytest.fixture
def experiment(tmp_path, monkeypatch):
    monkeypatch.setenv("ACPT_ESTIMATOR_HOME", str(tmp_path / "store"))
    monkeypatch.setenv("PYTHONPATH", os.path.join(os.path.dirname(__file__), os.pardir, os.pardir, "compat"))
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "job.py").write_text(SCRIPT)
    return Experiment(Workspace._local(), "job-end"), str(tmp_path / "src")


def _estimator(source):
    return PyTorch(source, entry_script="job.py", compute_target="local", distributed_training=Mpi(2))


def test_a_wait_returns_the_details_made_with_the_final_record_as_they_are_read_after(experiment, monkeypatch):
    """The watcher makes the details with the early final record while mpiexec ends (LocalJob._ranks_done); the
    waiting driver returns them, and they are exactly what the run's details read afterwards."""
    exp, source = experiment
    taken = []
    original = local_job.LocalJob.take_final_details

    def spied(self):
        details = original(self)
        taken.append(details)
        return details

    monkeypatch.setattr(local_job.LocalJob, "take_final_details", spied)
    for _ in range(6):  # the early record is a head start that may lose its race with mpiexec's end: either way
        run = exp.submit(_estimator(source))
        details = run.wait_for_completion()
        assert details == run.get_details()
        assert details["status"] == "Completed" and details["properties"]["seen"] == "yes"
        assert sorted(details["logFiles"]) == ["system_logs/mpiexec.txt", "user_logs/std_log_process_0.txt",
                                               "user_logs/std_log_process_1.txt"]
    assert any(d is not None for d in taken)  # made by the watcher at least once in six jobs
    assert run._job.take_final_details() is None  # given once
    assert not [name for name in os.listdir(run.path) if name.startswith(".")]  # (none once the wait returns)
    assert run._job.details_of is None  # let go once the job ended: the job does not keep its LocalRun alive


def test_details_still_being_made_when_the_record_is_committed_are_waited_for(experiment, monkeypatch):
    """The details are made after the early final record is staged, outside its lock: the watcher commits the record
    once mpiexec has ended, meanwhile, and the waiting driver takes the details when they are made."""
    import threading
    import time

    from acpt_estimator.backends.local.run import LocalRun

    exp, source = experiment
    original, made, taken = LocalRun._details, [], []

    def slow_details(self, record):
        if threading.current_thread().name == "acpt-store-grants":  # driver_events' thread, for the early record
            time.sleep(0.3)  # the record is committed (and the driver woken) long before these are made
            made.append(record["status"])
        return original(self, record)

    original_take = local_job.LocalJob.take_final_details
    monkeypatch.setattr(LocalRun, "_details", slow_details)
    monkeypatch.setattr(local_job.LocalJob, "take_final_details",
                        lambda self: taken.append(original_take(self)) or taken[-1])
    for _ in range(3):  # (the early record may lose its race with mpiexec's end: then nothing is made early)
        run = exp.submit(_estimator(source))
        details = run.wait_for_completion()
        assert details == run.get_details() and details["status"] == "Completed"
        if taken[-1] is not None:
            break
    assert made and taken[-1] is not None and taken[-1] == details  # the early details, waited for


def test_a_final_record_made_slowly_on_the_event_thread_is_waited_for_and_never_made_after_the_end(experiment,
                                                                                                    monkeypatch):
    """The early final record is made on driver_events' thread as the last rank's marker appears. mpiexec may end
    meanwhile: the watcher's _finished waits for the record being made and commits it, and a late call (after
    _finished began) makes nothing."""
    import threading
    import time

    exp, source = experiment
    threads, late = [], []
    original_stage = local_job.LocalJob._stage_final

    def slow_stage(self, expected):
        threads.append(threading.current_thread().name)
        time.sleep(0.3)  # mpiexec has long ended when this record is made
        return original_stage(self, expected)

    monkeypatch.setattr(local_job.LocalJob, "_stage_final", slow_stage)
    run = exp.submit(_estimator(source))
    details = run.wait_for_completion()
    assert threads == ["acpt-store-grants"]  # driver_events' thread, not the watcher
    assert details["status"] == "Completed" and details == run.get_details()
    assert run._job.record["status"] == "Completed"

    job = run._job
    record_before = dict(job.record)
    monkeypatch.setattr(local_job.LocalJob, "_stage_final", lambda self, expected: late.append(expected))
    job._ranks_done(job.supervisor.outcome)  # as if a late marker came after the end
    assert late == [] and job._staged is None and job.record == record_before


def _listing(folder: str) -> list:
    return sorted(os.path.relpath(os.path.join(top, name), folder)
                  for top, folders, files in os.walk(folder) for name in folders + files)


def test_nothing_in_the_store_changes_once_the_run_is_done(experiment, monkeypatch, tmp_path):
    """A caller may remove its (temporary) store as soon as the wait returns: what the watcher tidies after ``done``
    (LocalJob._after_done) must leave the store as it was, or that removal fails on a name gone meanwhile (seen: 113
    of 150 jobs under load, FileNotFoundError on the record's previous version). Each job's store as the run was
    done, then as the tidying ended: the same, and the wait's caller could remove it."""
    exp, source = experiment
    seen = []
    original = local_job.LocalJob._after_done

    def listed(self):
        before = _listing(self.paths.home)
        original(self)
        seen.append((before, _listing(self.paths.home)))

    monkeypatch.setattr(local_job.LocalJob, "_after_done", listed)
    for index in range(4):  # (the early final record is committed in most, written the usual way in some)
        monkeypatch.setenv("ACPT_ESTIMATOR_HOME", str(tmp_path / f"store-{index}"))
        run = exp.submit(_estimator(source))
        assert run.wait_for_completion()["status"] == "Completed"
        run._job.supervisor.wait_ended()
        before, after = seen[-1]
        assert before == after
        assert not [name for name in before if os.path.basename(name).startswith((".reserve", ".run.json"))]
        shutil.rmtree(tmp_path / f"store-{index}")
