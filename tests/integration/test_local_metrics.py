"""Metrics logged from every rank of a local run: nothing lost, v1 shapes, visible to MLflow too."""

from __future__ import annotations

import textwrap

import pytest

from acpt_estimator import Mpi, PyTorch
from acpt_estimator.backends.local.models import get_model, list_models
from acpt_estimator.exceptions import ModelPathNotFoundException, UserErrorException
from acpt_estimator.v1.core.experiment import Experiment
from acpt_estimator.v1.core.model import Model
from acpt_estimator.v1.core.workspace import Workspace

pytestmark = pytest.mark.integration

MANY = textwrap.dedent("""
    import os
    from acpt_estimator.v1.core.run import Run
    run = Run.get_context()
    rank = int(os.environ["RANK"])
    for i in range(500):
        run.log("value", rank * 1000 + i)
    run.log("note", f"rank {rank} says hi")  # v1 samples log strings with run.log
""")

KINDS = textwrap.dedent("""
    import os
    import mlflow
    from acpt_estimator.v1.core.run import Run
    run = Run.get_context()
    run.log("lr", 0.01)
    run.log_list("losses", [0.9, 0.5, 0.25])
    run.log_row("epochs", epoch=1, acc=0.5)
    run.log_row("epochs", epoch=2, acc=0.75)
    run.log_table("table", {"x": [1, 2], "y": [10, 20]})
    with open("tiny.png", "wb") as handle:
        handle.write(b"\\x89PNG fake image")
    run.log_image("picture", path="tiny.png")
    run.tag("stage", "in-job")
    run.set_tags({"team": "vision"})
    run.upload_file("uploads/notes.txt", "tiny.png")
    assert run.get_metrics()["lr"] == 0.01  # reading back works inside the job too
    mlflow.log_metric("mlflow_only", 1.5)  # MLFLOW_RUN_ID/MLFLOW_TRACKING_URI point at this run
    os.makedirs("outputs/model", exist_ok=True)
    open("outputs/model.pt", "wb").write(b"weights")
    open("outputs/model/config.json", "w").write("{}")
""")


@pytest.fixture
def experiment(tmp_path, monkeypatch):
    monkeypatch.setenv("ACPT_ESTIMATOR_HOME", str(tmp_path / "store"))
    source = tmp_path / "src"
    source.mkdir()
    (source / "many.py").write_text(MANY)
    (source / "kinds.py").write_text(KINDS)
    return Experiment(Workspace._local(), "metrics")


def test_four_ranks_log_500_values_each_and_none_is_lost(experiment, tmp_path):
    est = PyTorch(str(tmp_path / "src"), entry_script="many.py", compute_target="local",
                  distributed_training=Mpi(4))
    run = experiment.submit(est)
    run.wait_for_completion()
    metrics = run.get_metrics()
    values = metrics["value"]
    assert len(values) == 2000
    for rank in range(4):
        assert [v for v in values if v // 1000 == rank] == [rank * 1000 + i for i in range(500)]
    assert sorted(metrics["note"]) == [f"rank {r} says hi" for r in range(4)]
    assert run.get_metrics(name="note").keys() == {"note"}


def test_every_v1_metric_kind_files_tags_and_mlflow_logging(experiment, tmp_path, monkeypatch):
    est = PyTorch(str(tmp_path / "src"), entry_script="kinds.py", compute_target="local")
    run = experiment.submit(est, tags={"submitted": "yes"})
    run.wait_for_completion()
    metrics = run.get_metrics()
    assert metrics["lr"] == 0.01  # logged once: a scalar
    assert metrics["losses"] == [0.9, 0.5, 0.25]
    assert metrics["epochs"] == {"epoch": [1, 2], "acc": [0.5, 0.75]}
    assert metrics["table"] == {"x": [1, 2], "y": [10, 20]}
    assert metrics["mlflow_only"] == 1.5
    assert run.get_tags() == {"submitted": "yes", "stage": "in-job", "team": "vision"}
    run.tag("reviewed", "by driver")
    assert run.get_tags()["reviewed"] == "by driver"

    names = run.get_file_names()
    prefix = f"aml://artifactId/ExperimentRun/dcid.{run.id}/"  # v1's value for an image: its artifact
    assert metrics["picture"].startswith(prefix) and metrics["picture"][len(prefix):] in names
    assert "uploads/notes.txt" in names and "outputs/model.pt" in names
    target = tmp_path / "down"
    run.download_file("outputs/model.pt", output_file_path=str(target / "m.pt"))
    assert (target / "m.pt").read_bytes() == b"weights"
    run.download_files(prefix="outputs", output_directory=str(target / "all"))
    assert (target / "all" / "outputs" / "model" / "config.json").exists()
    run.download_files(prefix="outputs/", output_directory=str(target / "flat"), append_prefix=False)
    assert (target / "flat" / "model.pt").exists()
    with pytest.raises(UserErrorException, match="was not found"):
        run.download_file("outputs/missing.pt")

    first = run.register_model("tiny", model_path="outputs/model.pt", tags={"k": "v"})
    second = run.register_model("tiny", model_path="outputs/model")
    assert (first.version, second.version, first.id) == (1, 2, "tiny:1")
    assert get_model("tiny").version == 2 and [m.version for m in list_models("tiny")] == [1, 2]
    assert open(first.download(str(tmp_path / "m1")), "rb").read() == b"weights"
    with pytest.raises(ModelPathNotFoundException, match="outputs/nope.pt"):
        run.register_model("tiny", model_path="outputs/nope.pt")
    # The driver's workspace sees the run, its experiment and the models (v1 shapes: int version, 'name:version').
    ws = experiment.workspace
    assert ws.get_run(run.id).get_metrics()["lr"] == 0.01 and list(ws.experiments) == ["metrics"]
    assert ws.models["tiny"].id == "tiny:2" and first.run_id == run.id
    first.add_tags({"reviewed": "yes"})
    assert Model(ws, "tiny", version=1).tags == {"k": "v", "reviewed": "yes"}

    # The same run, read by MLflow's own client from the local store (MLflow's SQLite store). The job used
    # MLflow, so its MLflow run existed before it started (MLFLOW_RUN_ID), named after the v1 run.
    from mlflow.tracking import MlflowClient

    from acpt_estimator.tracking import from_mlflow, metrics_from_records

    client = MlflowClient(ws.get_mlflow_tracking_uri())
    mlrun = client.get_run(run._record()["mlflow"]["runId"])
    assert mlrun.info.status == "FINISHED" and mlrun.info.run_name == run.id
    assert mlrun.data.tags["azureml.runid"] == run.id
    assert mlrun.data.metrics["lr"] == 0.01 and mlrun.data.metrics["mlflow_only"] == 1.5
    # Everything MLflow has no type for is kept as record tags: the MLflow copy reads back to the same metrics.
    histories = {k: [(m.value, m.step, m.timestamp) for m in client.get_metric_history(mlrun.info.run_id, k)]
                 for k in mlrun.data.metrics}
    assert metrics_from_records(from_mlflow(histories, mlrun.data.tags), run_id=run.id) == metrics
    assert mlrun.data.tags["stage"] == "in-job"
    assert client.get_experiment(mlrun.info.experiment_id).name == "metrics"
