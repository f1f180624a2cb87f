"""The one v1 record/shape module: MLflow form round trips, and v1's run-definition arguments from a v2 command."""

from acpt_estimator.job_runtime._v1_records import CHUNK
from acpt_estimator.tracking import command_arguments, from_mlflow, metrics_from_records, record, to_mlflow


def _roundtrip(records):
    histories, tags = {}, {}
    for rec in records:
        metric, extra = to_mlflow(rec)
        tags.update(extra)
        if metric is not None:
            key, value, step, ms = metric
            histories.setdefault(key, []).append((value, step, ms))
    return from_mlflow(histories, tags), tags


def test_every_kind_survives_the_mlflow_form():
    records = [record("metric", "loss", v, 1_000_000 * (i + 1), "rank_0", i) for i, v in enumerate((3, 2))]
    records += [record("metric", "acc/%", 0.5, 5_000_000, "rank_0", 5), record("list", "big", list(range(2000)),
                6_000_000, "rank_1", 1), record("row", "rows", {"a": 1}, 7_000_000, "rank_1", 2)]
    back, tags = _roundtrip(records)
    assert metrics_from_records(back) == {"loss": [3, 2], "acc/%": 0.5, "big": list(range(2000)), "rows": {"a": 1}}
    chunks = [key for key in tags if key.startswith("acpt.v1/rank_1/1.")]
    assert len(chunks) > 1 and all(len(tags[key]) <= CHUNK for key in chunks)  # split under the tag size limit
    assert [type(v) for v in metrics_from_records(back)["loss"]] == [int, int]  # logged as ints, read as ints


def test_a_record_missing_a_chunk_is_skipped_not_garbled():
    _, tags = _roundtrip([record("list", "big", list(range(2000)), 1_000_000, "rank_0", 1),
                          record("metric", "note", "kept", 2_000_000, "rank_0", 2)])
    del tags["acpt.v1/rank_0/1.1"]
    assert metrics_from_records(from_mlflow({}, tags)) == {"note": "kept"}


def test_arguments_as_v1_showed_them():
    command = ('export AZUREML_DATAREFERENCE_mnist="${{inputs.data}}"\n'
               "python train.py --data ${{inputs.data}} --lr ${{search_space.lr}} --name 'two words' --flag")
    script, arguments = command_arguments(command, {"lr": 0.05})
    assert script == "train.py"
    assert arguments == ["--data", "$AZUREML_DATAREFERENCE_mnist", "--lr", "0.05", "--name", "two words", "--flag"]
    assert command_arguments("", {}) == (None, [])
