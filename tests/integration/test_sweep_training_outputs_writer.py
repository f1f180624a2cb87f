"""The node after a v2 sweep node writes v1's TrainingOutputs: run as a real process against a real MLflow store
laid out as Azure ML lays out a pipeline (pipeline run -> node runs -> the sweep's trials), trials logging through
the job runtime's v1 Run as trial scripts do."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from acpt_estimator.job_runtime import RUNTIME_DIR
from acpt_estimator.pipelines.sweep_outputs import CODE_DIR, SCRIPT

pytestmark = pytest.mark.integration

_TRIAL = """import json, sys
from azureml.core.run import Run
run = Run.get_context()
for name, value in json.loads(sys.argv[1]):
    run.log_list(name[5:], value) if name.startswith("list:") else run.log(name, value)
print(json.dumps(run.get_metrics()))
"""


@pytest.fixture()
def pipeline_store(tmp_path):
    from mlflow.tracking import MlflowClient

    uri = "sqlite:///" + str(tmp_path / "mlflow.db")
    client = MlflowClient(uri)
    experiment = client.create_experiment("pipeline", artifact_location=(tmp_path / "artifacts").as_uri())

    def run(name, parent=None):
        tags = {"mlflow.parentRunId": parent.info.run_id} if parent is not None else {}
        return client.create_run(experiment, run_name=name, tags=tags)

    pipeline = run("pipeline")
    return uri, client, pipeline, run


def _log_trial(uri, run_id, logged) -> dict:
    """A trial process logs through the job runtime's v1 Run (MLflow underneath) and reads its own get_metrics."""
    env = {**os.environ, "MLFLOW_TRACKING_URI": uri, "MLFLOW_RUN_ID": run_id, "PYTHONPATH": RUNTIME_DIR,
           "ACPT_ESTIMATOR_AZUREML_RUN": "mlflow"}  # as in an image without azureml-core
    done = subprocess.run([sys.executable, "-c", _TRIAL, json.dumps(logged)], env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


def _write(uri, writer_id, *args):
    env = {**os.environ, "MLFLOW_TRACKING_URI": uri, "MLFLOW_RUN_ID": writer_id}
    return subprocess.run([sys.executable, os.path.join(CODE_DIR, SCRIPT), *args, "--job-runtime", RUNTIME_DIR],
                          env=env, capture_output=True, text=True, timeout=120)


def test_the_writer_finds_the_sweeps_trials_and_writes_v1s_metrics_and_the_best_model(pipeline_store, tmp_path):
    uri, client, pipeline, run = pipeline_store
    run("prep", pipeline)  # a sibling node that is not the sweep
    sweep = run("tune model", pipeline)  # a node's run is named after the node's display name
    logged = [[["accuracy", 0.2], ["accuracy", 0.4], ["loss", 0.5], ["note", "text"], ["list:curve", [1, 2, 3]]],
              [["accuracy", 0.5], ["accuracy", 0.9], ["epochs", 3]],
              [["accuracy", 0.99]]]  # the best value, but the trial failed: not the best trial
    trials, own_view = [], {}
    for index, (metrics, status) in enumerate(zip(logged, ("FINISHED", "FINISHED", "FAILED"))):
        trial = run(f"{sweep.info.run_id}_{index}", sweep)
        own_view[trial.info.run_id] = _log_trial(uri, trial.info.run_id, metrics)
        model = tmp_path / f"trial{index}" / "model.txt"
        model.parent.mkdir()
        model.write_text(f"model of trial {index}")
        client.log_artifact(trial.info.run_id, str(model), "outputs")  # Azure ML uploads outputs/ so
        client.set_terminated(trial.info.run_id, status)
        trials.append(trial.info.run_id)
    writer = run("tune_training_outputs", pipeline)
    out = tmp_path / "out"
    done = _write(uri, writer.info.run_id, "--sweep-node", "tune", "--sweep-node", "tune model",
                  "--primary-metric", "accuracy", "--goal", "maximize", "--metrics", str(out / "metrics"),
                  "--model-file", str(out / "model_file"), "outputs/model.txt", "--model-folder", str(out / "best"))
    assert done.returncode == 0, done.stderr
    written = json.loads((out / "metrics").read_text())
    # v1's file: {trial run id: that trial's get_metrics()}, as the local path writes it and each trial reads it
    assert written == own_view
    assert written[trials[0]] == {"accuracy": [0.2, 0.4], "loss": 0.5, "note": "text", "curve": [1, 2, 3]}
    assert written[trials[1]] == {"accuracy": [0.5, 0.9], "epochs": 3}
    assert (out / "model_file").read_text() == "model of trial 1"  # best completed trial by its best value
    assert (out / "best" / "model.txt").read_text() == "model of trial 1"

    minimize = _write(uri, writer.info.run_id, "--sweep-node", "tune model", "--primary-metric", "accuracy",
                      "--goal", "minimize", "--model-file", str(out / "low"), "outputs/model.txt")
    assert minimize.returncode == 0, minimize.stderr
    assert (out / "low").read_text() == "model of trial 0"


def test_the_writer_says_which_runs_it_found_when_the_sweep_node_has_none(pipeline_store, tmp_path):
    uri, client, pipeline, run = pipeline_store
    run("prep", pipeline)
    writer = run("tune_training_outputs", pipeline)
    done = _write(uri, writer.info.run_id, "--sweep-node", "tune", "--primary-metric", "accuracy", "--goal",
                  "maximize", "--metrics", str(tmp_path / "metrics"))
    assert done.returncode != 0
    assert "no run of pipeline" in done.stderr and "'tune'" in done.stderr and "'prep'" in done.stderr
    assert not (tmp_path / "metrics").exists()
    # a run named otherwise is found by the node it ran, where the service shows that property as a tag
    sweep = client.create_run(pipeline.info.experiment_id, run_name="renamed in studio", tags={
        "mlflow.parentRunId": pipeline.info.run_id, "azureml.nodeid": "tune"})
    trial = run("trial_0", sweep)
    again = _write(uri, writer.info.run_id, "--sweep-node", "tune", "--primary-metric", "accuracy", "--goal",
                   "maximize", "--metrics", str(tmp_path / "metrics"))
    assert again.returncode == 0, again.stderr
    assert json.loads((tmp_path / "metrics").read_text()) == {trial.info.run_id: {}}
