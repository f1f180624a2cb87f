"""Where read-only binds are impossible, a local job can write in the whole run store; the driver says so when the
first job starts (issue 23)."""

from __future__ import annotations

import logging

import pytest

from acpt_estimator import PyTorch
from acpt_estimator.backends.local import job as local_job
from acpt_estimator.backends.local import store_view
from acpt_estimator.v1.core.experiment import Experiment
from acpt_estimator.v1.core.workspace import Workspace

pytestmark = pytest.mark.integration


def test_the_first_job_says_what_its_code_could_change(tmp_path, monkeypatch, caplog):
    store = tmp_path / "store"
    monkeypatch.setenv("ACPT_ESTIMATOR_HOME", str(store))
    monkeypatch.setattr(local_job, "_told_writable", set())
    monkeypatch.setattr(store_view, "bind_mounts_available", lambda: False)  # a machine without read-only binds
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "train.py").write_text("print('ok')\n")
    experiment = Experiment(Workspace._local(), "notice")
    with caplog.at_level(logging.WARNING, logger="acpt_estimator.backends.local.job"):
        runs = [experiment.submit(PyTorch(str(tmp_path / "src"), entry_script="train.py", compute_target="local"))
                for _ in range(2)]
        for run in runs:
            run.wait_for_completion()
    notes = [r.getMessage() for r in caplog.records if "write access to the whole local run store" in r.getMessage()]
    assert len(notes) == 1 and str(store) in notes[0] and "other runs' records, registered models" in notes[0]
    assert "ACPT_ESTIMATOR_HOME" in notes[0]
