"""Copying a run's metrics into MLflow can stop at any point (a crash, a full disk) and be done again by whoever
finishes the run next: the MLflow run ends with exactly one copy, and no reader ever counts a value twice."""

from __future__ import annotations

import pytest

from acpt_estimator.backends.local import mlflow_sqlite
from acpt_estimator.tracking import SCALAR, RecordWriter, read_records


@pytest.fixture(scope="module")
def mlstore(tmp_path_factory):
    home = str(tmp_path_factory.mktemp("store"))
    return home, mlflow_sqlite.store(home)  # MLflow's SQLite store, created once for these tests


def _logged(tmp_path, count):
    writer = RecordWriter(str(tmp_path / "metrics"), "rank_0")
    for i in range(count):
        writer.write(SCALAR, "loss", float(i))
    return read_records(str(tmp_path / "metrics"))


def _copies(mlstore, run_id):
    return [m.value for m in mlstore[1].get_metric_history(run_id, "loss")]


def test_exporting_twice_leaves_one_copy(tmp_path, mlstore):
    records = _logged(tmp_path, 50)
    run_id = mlflow_sqlite.start_run(mlstore[0], "export", "export_1_aaaaaaaa", 0)
    for _ in range(2):  # the driver, then a reader finishing the run again
        assert mlflow_sqlite.export_records(mlstore[0], run_id, records)[1] == []
    assert _copies(mlstore, run_id) == [float(i) for i in range(50)]


def test_a_copy_cut_off_is_resumed_not_repeated(tmp_path, mlstore, monkeypatch):
    records = _logged(tmp_path, 2000)  # three batches
    run_id = mlflow_sqlite.start_run(mlstore[0], "export", "export_2_bbbbbbbb", 0)
    real, calls = mlstore[1].log_batch, []

    def full_disk_on_the_second_batch(*args, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise OSError(28, "No space left on device")
        return real(*args, **kwargs)

    monkeypatch.setattr(mlstore[1], "log_batch", full_disk_on_the_second_batch)
    exported, problems = mlflow_sqlite.export_records(mlstore[0], run_id, records)
    assert exported == {"loss": "loss"} and len(problems) == 1 and "No space left" in problems[0]
    assert len(_copies(mlstore, run_id)) == mlflow_sqlite._BATCH  # the first batch, whole
    monkeypatch.setattr(mlstore[1], "log_batch", real)
    assert mlflow_sqlite.export_records(mlstore[0], run_id, records)[1] == []
    assert sorted(_copies(mlstore, run_id)) == [float(i) for i in range(2000)]
