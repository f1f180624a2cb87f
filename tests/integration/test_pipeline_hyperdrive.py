"""HyperDriveStep runs here as a sweep inside the pipeline: real trial processes, the best trial's outputs passed on,
metrics_output and TrainingOutput('Model') written as v1's service did, HyperDriveStepRun over the step run."""

from __future__ import annotations

import json
import os

import pytest

from acpt_estimator.v1.core.experiment import Experiment
from acpt_estimator.v1.core.script_run_config import ScriptRunConfig
from acpt_estimator.v1.pipeline.core import Pipeline, PipelineData, PipelineParameter, TrainingOutput
from acpt_estimator.v1.pipeline.steps import CommandStep, HyperDriveStep, HyperDriveStepRun, PythonScriptStep
from acpt_estimator.v1.train.hyperdrive import GridParameterSampling, HyperDriveConfig, PrimaryMetricGoal, choice
from tests.local_fixtures import local_workspace  # noqa: F401

pytestmark = pytest.mark.integration
SRC = os.path.join(os.path.dirname(__file__), os.pardir, "data", "pipeline_steps")


def _pipeline(ws):
    store = ws.get_default_datastore()
    data, model = PipelineData("prepared", datastore=store), PipelineData("best_model", datastore=store)
    metrics = PipelineData("metrics_data", datastore=store, pipeline_output_name="metrics_output")
    saved = PipelineData("saved_model", datastore=store, training_output=TrainingOutput(
        "Model", model_file="outputs/model.txt"))
    prep = PythonScriptStep("prep.py", name="prep", arguments=["--out", data, "--n", PipelineParameter("n", 4)],
                            outputs=[data], source_directory=SRC, compute_target="cpu")
    config = HyperDriveConfig(run_config=ScriptRunConfig(SRC, script="hd_trial.py", compute_target="cpu"),
                              hyperparameter_sampling=GridParameterSampling({"quality": choice(1, 3)}),
                              primary_metric_name="accuracy", primary_metric_goal=PrimaryMetricGoal.MAXIMIZE,
                              max_total_runs=2, max_concurrent_runs=2)
    tune = HyperDriveStep("tune", config, estimator_entry_script_arguments=[
        "--data", data.as_mount(), "--model", model, "--scale", PipelineParameter("scale", 1.0)],
        inputs=[data.as_mount()], outputs=[model, saved], metrics_output=metrics)
    read = PythonScriptStep("read_in.py", name="read", arguments=["--in", model], inputs=[model],
                            source_directory=SRC, compute_target="cpu", allow_reuse=False)
    return Pipeline(ws, [prep, tune, read])


def test_a_sweep_step_passes_on_its_best_trial_and_writes_the_trials_metrics(local_workspace, tmp_path):
    pipeline = _pipeline(local_workspace)
    assert pipeline.validate() == []
    exp = Experiment(local_workspace, "pipeline-sweep")
    run = exp.submit(pipeline, pipeline_parameters={"scale": 2.0})
    assert run.wait_for_completion(show_output=False) == "Completed"
    step = run.find_step_run("tune")[0]
    assert step.parent.id == run.id and step.get_status() == "Completed"
    assert step.get_metrics() == {}  # the sweep's own: its trials log theirs
    hd = HyperDriveStepRun(step_run=step)
    trials = list(hd.get_children())
    assert len(trials) == 2
    best = hd.get_best_run_by_primary_metric()
    # prep wrote 0..3 (sum 6); quality 3 x 6 x scale 2 wins
    assert best.get_metrics()["accuracy"] == [18.0, 36.0]
    assert json.loads(hd.get_hyperparameters()[best.id]) == {"quality": 3}
    # the next step read the best trial's model output (read_in.py logs the text it found)
    assert run.find_step_run("read")[0].get_metrics()["read"] == "36.0"

    metrics_ref = run.get_pipeline_output("metrics_output")  # its pipeline_output_name, as v1's sample reads it
    assert metrics_ref.path_on_datastore == f"azureml/{step.id}/metrics_data"
    metrics_ref.download(str(tmp_path / "dl"), show_progress=False)
    with open(tmp_path / "dl" / metrics_ref._path_on_datastore) as handle:  # v1's sample reads the file so
        written = json.loads(handle.read())
    assert written == {t.id: t.get_metrics() for t in trials} == hd.get_metrics()
    model_file = hd.get_output_data("saved_model").download(str(tmp_path / "model"), show_progress=False)
    assert open(model_file).read() == "quality=3.0"  # the best trial's outputs/model.txt

    again = exp.submit(pipeline, pipeline_parameters={"scale": 2.0})  # unchanged: the sweep step is reused
    assert again.wait_for_completion(show_output=False) == "Completed"
    assert again.find_step_run("tune")[0].id == step.id
    # published (its spec kept as JSON) and resubmitted with a new value: the sweep runs again with it
    published = pipeline.publish("tuning", version="1")
    later = published.submit(local_workspace, "pipeline-sweep", pipeline_parameters={"scale": 3.0})
    assert later.wait_for_completion(show_output=False) == "Completed"
    best = HyperDriveStepRun(later.find_step_run("tune")[0]).get_best_run_by_primary_metric()
    assert best.get_metrics()["accuracy"] == [27.0, 54.0]


def test_hyperdrive_step_keeps_v1s_argument_rules(local_workspace):
    from acpt_estimator import PyTorch

    sampling = GridParameterSampling({"quality": choice(1, 2)})
    est = PyTorch(SRC, entry_script="hd_trial.py", script_params={"--quality": 1}, compute_target="cpu")
    config = HyperDriveConfig(estimator=est, hyperparameter_sampling=sampling, primary_metric_name="accuracy",
                              primary_metric_goal=PrimaryMetricGoal.MAXIMIZE, max_total_runs=2)
    with pytest.raises(ValueError, match="arguments in Estimator run_config should not be provided"):
        HyperDriveStep("tune", config, estimator_entry_script_arguments=[])
    bare = HyperDriveConfig(estimator=PyTorch(SRC, entry_script="hd_trial.py", compute_target="cpu"),
                            hyperparameter_sampling=sampling, primary_metric_name="accuracy",
                            primary_metric_goal=PrimaryMetricGoal.MAXIMIZE, max_total_runs=2)
    with pytest.raises(ValueError, match="estimator_entry_script_arguments is a required parameter"):
        HyperDriveStep("tune", bare)
    with pytest.raises(ValueError, match="Unexpected metrics_output type"):
        HyperDriveStep("tune", bare, estimator_entry_script_arguments=[], metrics_output="metrics.json")
    # an estimator's trial: the step's arguments, a swept flag among them dropped (the sweep sets it)
    step = HyperDriveStep("tune", bare, estimator_entry_script_arguments=["--quality", "5", "--scale", 2])
    spec = Pipeline(local_workspace, [step])._to_spec("x").steps[0]
    assert spec.kind == "sweep" and spec.job.entry_script == "hd_trial.py"
    assert [getattr(t, "value", None) or f"<{t.name}>" for t in spec.job.arguments] == [
        "--scale", "2", "--quality", "<quality>"]
    echo = CommandStep(command="echo plain", name="echo", source_directory=SRC, compute_target="cpu")
    run = Experiment(local_workspace, "not-a-sweep").submit(Pipeline(local_workspace, [echo]))
    assert run.wait_for_completion(show_output=False) == "Completed"
    with pytest.raises(ValueError, match="Step run with wrong type"):
        HyperDriveStepRun(run.find_step_run("echo")[0])


def test_cancel_ends_the_sweep_steps_trials(local_workspace):
    import time

    from acpt_estimator.backends.local.procs import job_pids

    config = HyperDriveConfig(run_config=ScriptRunConfig(SRC, script="sleep.py", compute_target="cpu"),
                              hyperparameter_sampling=GridParameterSampling({"quality": choice(1, 2)}),
                              primary_metric_name="accuracy", primary_metric_goal=PrimaryMetricGoal.MAXIMIZE,
                              max_total_runs=2, max_concurrent_runs=2)
    tune = HyperDriveStep("tune", config, estimator_entry_script_arguments=[], allow_reuse=False)
    run = Experiment(local_workspace, "cancel-sweep").submit(Pipeline(local_workspace, [tune]))
    deadline, started = time.monotonic() + 60, set()
    while len(started) < 2 and time.monotonic() < deadline:  # both trials' scripts are running
        for step in run.get_steps():
            for trial in HyperDriveStepRun(step).get_children():
                if "pid " in "".join(trial.get_details_with_logs()["logFiles"].values()):
                    started.add(trial.id)
        time.sleep(0.1)
    assert len(started) == 2
    run.cancel()
    assert run.wait_for_completion(show_output=False, raise_on_error=False) == "Canceled"
    trials = list(HyperDriveStepRun(run.find_step_run("tune")[0]).get_children())
    assert [t.get_status() for t in trials] == ["Canceled", "Canceled"]
    for trial in trials:  # no process of either trial is left
        assert job_pids(trial.id) == []
