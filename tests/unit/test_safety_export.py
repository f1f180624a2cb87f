"""Copying a run's metrics into MLflow can stop at any point (a crash, a full disk) and be done again by whoever
finishes the run next: the MLflow run ends with exactly one copy, and no reader ever counts a value twice."""

from __future__ import annotations

import json
import os

from acpt_estimator.backends.local import mlflow_store
from acpt_estimator.tracking import SCALAR, RecordWriter, from_mlflow, metrics_from_records, read_records


def _logged(tmp_path, count=50):
    metrics = tmp_path / "metrics"
    writer = RecordWriter(str(metrics), "rank_0")
    for i in range(count):
        writer.write(SCALAR, "loss", float(i))
    folder = tmp_path / "mlrun"
    (folder / "metrics").mkdir(parents=True)
    return str(metrics), str(folder)


def _as_reader_sees_it(metrics, folder):
    """LocalRun.get_metrics: the v1 records plus MLflow keys that are not copies of them."""
    try:
        with open(os.path.join(metrics, "mlflow_exported.json")) as handle:
            exported = set(json.load(handle))
    except OSError:
        exported = set()
    mlflow = from_mlflow(mlflow_store.read_metrics(folder, skip=exported), {})
    return metrics_from_records(read_records(metrics) + mlflow, None, run_id="r").get("loss")


def test_exporting_twice_leaves_one_copy(tmp_path):
    metrics, folder = _logged(tmp_path)
    manifest = os.path.join(metrics, "mlflow_exported.json")
    for _ in range(2):  # the driver, then a reader finishing the run again
        mlflow_store.export_records(folder, read_records(metrics), manifest=manifest)
    with open(os.path.join(folder, "metrics", "loss")) as handle:
        assert len(handle.readlines()) == 50
    assert len(_as_reader_sees_it(metrics, folder)) == 50


def test_a_copy_cut_off_mid_line_is_never_read_and_is_redone(tmp_path):
    metrics, folder = _logged(tmp_path)
    manifest = os.path.join(metrics, "mlflow_exported.json")
    mlflow_store.export_records(folder, read_records(metrics), manifest=manifest)
    path = os.path.join(folder, "metrics", "loss")
    with open(path, "r+b") as handle:  # the copy as a crash (or a full disk) left it: 20 lines and a torn one
        lines = handle.read().splitlines(keepends=True)
        handle.seek(0)
        handle.truncate()
        handle.write(b"".join(lines[:20]) + lines[20][:7])
    assert len(_as_reader_sees_it(metrics, folder)) == 50  # the v1 records count, the copy does not
    assert len(mlflow_store.read_metrics(folder)["loss"]) == 20  # and MLflow's reader skips the torn line
    mlflow_store.export_records(folder, read_records(metrics), manifest=manifest)
    with open(path) as handle:
        assert len(handle.readlines()) == 50
