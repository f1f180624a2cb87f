"""``from azureml.core.run import Run`` in a v2 job: the job runtime's MLflow-backed Run when the image has no
azureml-core, another installed azureml.core otherwise. Real processes, a real MLflow file store."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from acpt_estimator.job_runtime import RUNTIME_DIR

pytestmark = pytest.mark.integration

SCRIPT = """
from azureml.core.run import Run
run = Run.get_context()
print("impl", type(run).__module__)
for loss in (0.9, 0.5, 0.2):
    run.log("loss", loss)
run.log("lr", 0.01)
run.log("note", "epoch {0}: {1:.3f}".format(3, 0.2))
run.log_list("accuracies", [0.5, 0.7])
run.log_row("table", epoch=1, acc=0.7)
run.tag("stage", "train")
open("weights.bin", "w").write("weights")
run.upload_file("outputs/model.txt", "weights.bin")
run.set_tags({"drop": "1"})
run.remove_tags("drop")
print("tags", run.get_tags())
print("inputs", run.input_datasets)
print("experiment", run.experiment.name, run.experiment.workspace.name)
print("metrics", run.get_metrics())
"""


def _job_env(tmp_path, mode, monkeypatch):
    import mlflow

    monkeypatch.setenv("MLFLOW_ALLOW_FILE_STORE", "true")  # this test's own client reads the file store too
    uri = (tmp_path / "mlruns").as_uri()
    env = dict(os.environ, MLFLOW_ALLOW_FILE_STORE="true", MLFLOW_TRACKING_URI=uri)
    client = mlflow.MlflowClient(uri)
    experiment = client.create_experiment("v2-job")
    run_id = client.create_run(experiment).info.run_id
    env.update({"MLFLOW_RUN_ID": run_id, "AZUREML_RUN_ID": "job_123", "AZUREML_ARM_PROJECT_NAME": "v2-job",
                "AZUREML_ARM_WORKSPACE_NAME": "ws", "AZURE_ML_INPUT_train": "/mnt/inputs/train",
                "PYTHONPATH": RUNTIME_DIR, "ACPT_ESTIMATOR_AZUREML_RUN": mode})
    for name in ("ACPT_ESTIMATOR_RUN_DIR", "ACPT_ESTIMATOR_RUN_ID"):
        env.pop(name, None)
    return env, client, run_id


def test_without_azureml_core_the_run_logs_to_the_jobs_mlflow_run(tmp_path, monkeypatch):
    env, client, run_id = _job_env(tmp_path, "mlflow", monkeypatch)
    done = subprocess.run([sys.executable, "-c", SCRIPT], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert "impl azureml.core._mlflow_run" in done.stdout
    assert "inputs {'train': '/mnt/inputs/train'}" in done.stdout and "experiment v2-job ws" in done.stdout
    assert "'loss': [0.9, 0.5, 0.2]" in done.stdout and "'lr': 0.01" in done.stdout  # v1 shapes in-job too
    assert [m.value for m in client.get_metric_history(run_id, "loss")] == [0.9, 0.5, 0.2]
    # What MLflow has no type for (strings, lists, rows) survives as record tags, and reads back in v1's shapes.
    assert ("'note': 'epoch 3: 0.200'" in done.stdout and "'accuracies': [0.5, 0.7]" in done.stdout
            and "'table': {'epoch': 1, 'acc': 0.7}" in done.stdout)
    tags = client.get_run(run_id).data.tags
    assert tags["stage"] == "train" and any(key.startswith("acpt.v1/rank_0-") for key in tags)
    assert "tags {'stage': 'train'}" in done.stdout  # record tags are not user tags; removed ones are gone
    assert [a.path for a in client.list_artifacts(run_id, "outputs")] == ["outputs/model.txt"]


def test_an_installed_azureml_core_is_served_instead(tmp_path, monkeypatch):
    """Here acpt-estimator's own shims are the installed azureml.core (as azureml-core would be on ACPT)."""
    env, _, _ = _job_env(tmp_path, "auto", monkeypatch)
    done = subprocess.run([sys.executable, "-c", "from azureml.core.run import Run; import azureml.core; "
                           "print(Run.__module__, azureml.core.__file__)"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    module, origin = done.stdout.split()
    assert module == "acpt_estimator.v1.core.run" and RUNTIME_DIR not in origin


def test_scripts_find_their_model_without_azureml_core(tmp_path, monkeypatch):
    """``Model.get_model_path`` in a v2 job: the model passed as a job input, else a clear error saying how."""
    env, _, _ = _job_env(tmp_path, "mlflow", monkeypatch)
    env["AZURE_ML_INPUT_mnist_cnn"] = "/mnt/inputs/mnist_cnn"
    code = ("from azureml.core.model import Model, ModelNotFoundException\n"
            "print('found', Model.get_model_path('mnist-cnn'))\n"
            "try:\n    Model.get_model_path('other', version=3)\n"
            "except ModelNotFoundException as err:\n    print('missing', err)\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert "found /mnt/inputs/mnist_cnn" in done.stdout
    assert "missing Model other:3 was not found" in done.stdout and "path='azureml:other:3'" in done.stdout
