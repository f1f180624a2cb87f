"""The local MLflow store's cheap parts: which jobs get an MLflow run at launch, the URI, and stores written
before the SQLite store (their file-store metrics still read, without importing MLflow)."""

from __future__ import annotations

import json
import subprocess
import sys

from acpt_estimator.backends.local import mlflow_sqlite
from acpt_estimator.backends.local.run import LocalRun
from acpt_estimator.backends.local.store import RunPaths


def test_only_jobs_whose_sources_name_mlflow_get_an_mlflow_run_at_launch(tmp_path):
    (tmp_path / "train.py").write_text("import torch\nprint('mlflowish')\n")
    (tmp_path / "data.bin").write_bytes(b"mlflow")  # not a source file
    assert not mlflow_sqlite.job_uses_mlflow(str(tmp_path), ["train.py", "data.bin"])
    assert mlflow_sqlite.job_uses_mlflow(str(tmp_path), ["train.py"], "python train.py && mlflow run .")
    (tmp_path / "util.py").write_text("from mlflow import log_metric\n")
    assert mlflow_sqlite.job_uses_mlflow(str(tmp_path), ["train.py", "util.py"])


def test_the_tracking_uri_is_mlflows_sqlite_store_and_costs_no_import(tmp_path):
    code = ("import sys; from acpt_estimator.backends.local import mlflow_sqlite as m; "
            f"print(m.synced_tracking_uri({str(tmp_path)!r}), 'mlflow' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == [f"sqlite:///{tmp_path}/mlflow.db", "False"]  # no finished run: nothing to copy


def test_a_run_written_before_the_sqlite_store_reads_its_mlflow_metrics(tmp_path):
    paths = RunPaths(str(tmp_path), "old_1_abcdef01")
    paths.create()
    record = {"runId": paths.run_id, "experimentName": "old", "status": "Completed", "createdTime": 1.0,
              "mlflow": {"experimentId": "42", "trackingUri": f"file://{tmp_path}/mlruns"}}
    (tmp_path / "runs" / paths.run_id / "run.json").write_text(json.dumps(record))
    metrics = tmp_path / "mlruns" / "42" / paths.run_id / "metrics"
    metrics.mkdir(parents=True)
    (metrics / "loss").write_text("1000 0.5 0\n2000 0.25 1\n")
    assert LocalRun(paths).get_metrics() == {"loss": [0.5, 0.25]}
