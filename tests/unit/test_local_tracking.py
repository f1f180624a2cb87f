"""Run records (JSON lines per process) read back with v1's get_metrics shapes; the local store's run index."""

import json
import os
import subprocess
import sys
import time

import pytest

from acpt_estimator.backends.local import get_run, list_runs
from acpt_estimator.backends.local.mlflow_store import safe_key
from acpt_estimator.backends.local.store import write_json
from acpt_estimator.exceptions import UserErrorException
from acpt_estimator.tracking import RecordingRun, RecordWriter, metrics_from_records, read_records


class _Run(RecordingRun):
    def __init__(self, run_dir, writer="driver"):
        self._run_dir = str(run_dir)
        self._writer_name = writer


def test_v1_shapes_scalar_once_list_when_repeated_rows_and_tables_as_columns(tmp_path):
    run = _Run(tmp_path)
    run.log("once", 1.5)
    for value in (3, 2, 1):
        run.log("repeated", value)
    run.log("text", "strings are kept")
    run.log_list("curve", [0.1, 0.2])
    run.log_list("curve", [0.3])
    run.log_row("rows", epoch=1, acc=0.5)
    run.log_row("rows", epoch=2, acc=0.7)
    run.log_table("table", {"a": [1, 2], "b": ["x", "y"]})
    assert run.get_metrics() == {"once": 1.5, "repeated": [3, 2, 1], "text": "strings are kept",
                                 "curve": [0.1, 0.2, 0.3], "rows": {"epoch": [1, 2], "acc": [0.5, 0.7]},
                                 "table": {"a": [1, 2], "b": ["x", "y"]}}
    assert run.get_metrics(name="repeated") == {"repeated": [3, 2, 1]}


def test_run_log_refuses_lists_like_v1(tmp_path):
    with pytest.raises(UserErrorException, match="run.log does not support list type"):
        _Run(tmp_path).log("bad", [1, 2])


def test_writers_interleave_by_time_and_keep_their_own_order(tmp_path):
    a, b = _Run(tmp_path, "rank_0"), _Run(tmp_path, "rank_1")
    for i in range(50):
        a.log("v", i)
        b.log("v", 100 + i)
    values = _Run(tmp_path).get_metrics()["v"]
    assert [v for v in values if v < 100] == list(range(50))
    assert [v for v in values if v >= 100] == list(range(100, 150))


def test_a_line_cut_short_by_a_killed_process_loses_only_that_line(tmp_path):
    writer = RecordWriter(str(tmp_path), "rank_0")
    writer.write("metric", "v", 1)
    with open(writer.path, "ab") as handle:
        handle.write(b'{"t": 9, "k": "met')
    assert metrics_from_records(read_records(str(tmp_path))) == {"v": 1}


def test_tags_and_properties_are_kept_apart_from_metrics(tmp_path):
    run = _Run(tmp_path)
    run.tag("stage", "train")
    run.set_tags({"stage": "eval", "team": "x"})
    run.add_properties({"p": 1})
    assert run.get_tags() == {"stage": "eval", "team": "x"} and run.get_properties() == {"p": "1"}
    assert run.get_metrics() == {}
    assert sorted(os.listdir(tmp_path / "metrics")) == ["driver.tags.jsonl"]


def test_mlflow_keys_are_made_safe():
    assert safe_key("Accuracy (%)") == "Accuracy ___" and safe_key("a/b.c-d e:f") == "a/b.c-d e:f"
    assert safe_key("../x") == "_/x" and safe_key("") == "_"


def test_reopening_needs_a_known_run_id(tmp_path):
    with pytest.raises(UserErrorException, match="ACPT_ESTIMATOR_HOME"):
        get_run("nope_1_00000000", store_home=str(tmp_path))


def _record(run_id, status, pid, created):
    return {"runId": run_id, "experimentName": "exp", "status": status, "createdTime": created,
            "supervisor": {"pid": pid, "startTicks": None}, "workspace": {"name": "local"}}


def test_a_run_whose_supervising_process_died_is_finished_failed_and_runs_list_newest_first(tmp_path):
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    for run_id, status, pid, created in (("exp_1_aaaaaaaa", "Completed", gone.pid, 1.0),
                                         ("exp_2_bbbbbbbb", "Running", gone.pid, 2.0),
                                         ("exp_3_cccccccc", "Running", os.getpid(), time.time())):
        os.makedirs(tmp_path / "runs" / run_id)
        write_json(str(tmp_path / "runs" / run_id / "run.json"), _record(run_id, status, pid, created))
    (tmp_path / "runs" / "broken").mkdir()
    (tmp_path / "runs" / "broken" / "run.json").write_text("{")
    assert [r.id for r in list_runs("exp", store_home=str(tmp_path))] == [
        "exp_3_cccccccc", "exp_2_bbbbbbbb", "exp_1_aaaaaaaa"]
    orphaned = get_run("exp_2_bbbbbbbb", store_home=str(tmp_path))
    assert orphaned.get_status() == "Failed"
    assert "ended before the run finished" in orphaned.get_details()["error"]["error"]["message"]
    assert get_run("exp_3_cccccccc", store_home=str(tmp_path)).get_status() == "Running"
    # Reopening finished the record once, for every later reader (recovery.settle).
    assert json.loads((tmp_path / "runs" / "exp_2_bbbbbbbb" / "run.json").read_text())["status"] == "Failed"


def test_records_are_found_under_a_folder_whose_name_looks_like_a_pattern(tmp_path):
    folder = tmp_path / "runs[1]*" / "metrics"
    folder.mkdir(parents=True)
    writer = RecordWriter(str(folder), "rank_0")
    writer.write("metric", "v", 1)
    (folder / ".partial.jsonl").write_text('{"t": 1, "k": "metric", "n": "hidden", "v": 2}\n')  # (hidden: skipped)
    assert metrics_from_records(read_records(str(folder))) == {"v": 1}
    assert read_records(str(tmp_path / "missing")) == []
