"""exp.submit(pipeline) through the real MLClient against the loopback HTTPS fake: one pipeline job, its steps."""

from __future__ import annotations

import json
import os

import pytest

from acpt_estimator.v1.core.experiment import Experiment
from acpt_estimator.v1.pipeline.core import Pipeline, PipelineData, PipelineParameter
from acpt_estimator.v1.pipeline.steps import MpiStep, PythonScriptStep
from tests.fake_aml.fixtures import *  # noqa: F401,F403

pytestmark = pytest.mark.integration
SRC = os.path.join(os.path.dirname(__file__), os.pardir, "data", "pipeline_steps")


def test_a_pipeline_becomes_one_v2_pipeline_job_whose_children_are_the_steps(fake_aml, cloud_workspace, capsys):
    data = PipelineData("prepared", datastore=cloud_workspace.get_default_datastore())
    rows = PipelineParameter("rows", 5)
    prep = PythonScriptStep("prep.py", name="prep", arguments=["--out", data, "--n", rows], outputs=[data],
                            source_directory=SRC, compute_target="cpu-cluster")
    train = MpiStep(name="train", source_directory=SRC, script_name="train.py", compute_target="cpu-cluster",
                    arguments=["--data", data.as_mount()], inputs=[data.as_mount()], node_count=1,
                    process_count_per_node=2, allow_reuse=False)
    run = Experiment(cloud_workspace, "cloud-pipeline").submit(Pipeline(cloud_workspace, [prep, train]),
                                                               pipeline_parameters={"rows": 9})
    puts = [r for r in fake_aml.calls("PUT", r"/jobs/[^/]+$") if r.status in (200, 201)]
    (put,) = puts
    body = put.json()["properties"]
    assert body["jobType"] == "Pipeline" and sorted(body["jobs"]) == ["prep", "train"]
    assert body["inputs"]["rows"] == {"jobInputType": "literal", "value": "9"}
    assert body["jobs"]["train"]["inputs"]["prepared"]["value"] == "${{parent.jobs.prep.outputs.prepared}}"
    assert run.wait_for_completion(show_output=True) == "Completed"
    assert "StepRun(train) Status: Completed" in capsys.readouterr().out
    steps = {s.name: s for s in run.get_steps()}
    assert sorted(steps) == ["prep", "train"]
    train_run = run.find_step_run("train")[0]
    assert train_run.get_status() == "Completed" and train_run.parent.id == run.id
    assert train_run.get_metrics()  # the step's metrics, read as for single jobs
    output = steps["prep"].get_output_data("prepared")
    assert output.datastore_name == "workspaceblobstore"
    assert output.path_on_datastore == f"azureml/{steps['prep'].id}/prepared"


def test_a_failing_step_fails_the_pipeline_run_and_cancel_reaches_the_service(fake_aml, cloud_workspace):
    from acpt_estimator.exceptions import ActivityFailedException
    from tests.fake_aml.state import JobScript

    failed = ("Queued", "Running", "Failed")
    fake_aml.script_next_job(JobScript(states=failed, nodes={"broken": JobScript(states=failed)}))
    ok = PythonScriptStep("write_out.py", name="ok", source_directory=SRC, compute_target="cpu-cluster")
    broken = PythonScriptStep("fail.py", name="broken", source_directory=SRC, compute_target="cpu-cluster")
    run = Experiment(cloud_workspace, "cloud-failing").submit(Pipeline(cloud_workspace, [ok, broken]))
    with pytest.raises(ActivityFailedException, match="Failed"):
        run.wait_for_completion(show_output=False)
    assert {s.name: s.get_status() for s in run.get_steps()} == {"ok": "Completed", "broken": "Failed"}
    again = Experiment(cloud_workspace, "cloud-cancel").submit(Pipeline(cloud_workspace, [ok]))
    again.cancel()
    assert fake_aml.calls("POST", rf"/jobs/{again.id}/cancel")


def test_a_hyperdrive_step_is_a_sweep_node_whose_step_run_reads_its_trials(fake_aml, cloud_workspace):
    from acpt_estimator.v1.core.script_run_config import ScriptRunConfig
    from acpt_estimator.v1.pipeline.steps import HyperDriveStep, HyperDriveStepRun
    from acpt_estimator.v1.train.hyperdrive import GridParameterSampling, HyperDriveConfig, PrimaryMetricGoal, choice
    from tests.fake_aml.state import JobScript

    trials = ((({"quality": 1}, JobScript(metrics={"accuracy": [0.2, 0.4]})),
               ({"quality": 3}, JobScript(metrics={"accuracy": [0.5, 0.9]}))))
    fake_aml.script_next_job(JobScript(nodes={"tune": JobScript(children=trials)}))
    data, model = PipelineData("prepared"), PipelineData("best_model", pipeline_output_name="tuned_model")
    prep = PythonScriptStep("prep.py", name="prep", arguments=["--out", data, "--n", 4], outputs=[data],
                            source_directory=SRC, compute_target="cpu-cluster")
    config = HyperDriveConfig(run_config=ScriptRunConfig(SRC, script="hd_trial.py", compute_target="gpu-cluster"),
                              hyperparameter_sampling=GridParameterSampling({"quality": choice(1, 3)}),
                              primary_metric_name="accuracy", primary_metric_goal=PrimaryMetricGoal.MAXIMIZE,
                              max_total_runs=2)
    tune = HyperDriveStep("tune", config, estimator_entry_script_arguments=[
        "--data", data.as_mount(), "--model", model, "--scale", PipelineParameter("scale", 1.0)],
        inputs=[data.as_mount()], outputs=[model])
    run = Experiment(cloud_workspace, "cloud-sweep-step").submit(Pipeline(cloud_workspace, [prep, tune]),
                                                                 pipeline_parameters={"scale": 2.0})
    (put,) = [r for r in fake_aml.calls("PUT", r"/jobs/[^/]+$") if r.status in (200, 201)]
    node = put.json()["properties"]["jobs"]["tune"]
    assert node["type"] == "sweep" and node["inputs"]["prepared"]["value"] == "${{parent.jobs.prep.outputs.prepared}}"
    assert node["inputs"]["scale"]["value"] == "${{parent.inputs.scale}}"
    assert put.json()["properties"]["inputs"]["scale"] == {"jobInputType": "literal", "value": "2.0"}
    assert run.wait_for_completion(show_output=False) == "Completed"
    step = run.find_step_run("tune")[0]
    hd = HyperDriveStepRun(step)
    assert len(list(hd.get_children())) == 2
    best = hd.get_best_run_by_primary_metric()
    assert best.get_metrics()["accuracy"] == [0.5, 0.9]
    assert json.loads(hd.get_hyperparameters()[best.id]) == {"quality": 3}  # the service's record, v1's names
    # the sweep node passes on its best trial's outputs, written under that trial's name
    assert hd.get_output_data("best_model").path_on_datastore == f"azureml/{best.id}/best_model"
    assert run.get_pipeline_output("tuned_model").path_on_datastore == f"azureml/{best.id}/best_model"


def test_step_params_and_process_counts_from_pipeline_parameters_reach_the_pipeline_job(fake_aml, cloud_workspace):
    model = PipelineData("model")
    greet = PythonScriptStep("env_param.py", name="greet", source_directory=SRC, compute_target="cpu-cluster",
                             params={"greeting": PipelineParameter("greeting", "hello")})
    train = MpiStep(name="train", source_directory=SRC, script_name="train.py", compute_target="cpu-cluster",
                    arguments=["--model", model], outputs=[model], node_count=1,
                    process_count_per_node=PipelineParameter("procs", 1))
    run = Experiment(cloud_workspace, "cloud-step-params").submit(
        Pipeline(cloud_workspace, [greet, train]), pipeline_parameters={"greeting": "bonjour", "procs": 3})
    (put,) = [r for r in fake_aml.calls("PUT", r"/jobs/[^/]+$") if r.status in (200, 201)]
    body = put.json()["properties"]
    assert body["inputs"]["greeting"] == {"jobInputType": "literal", "value": "bonjour"}
    assert body["jobs"]["greet"]["inputs"]["greeting"]["value"] == "${{parent.inputs.greeting}}"
    assert body["jobs"]["train"]["distribution"]["process_count_per_instance"] == 3  # the value given at submit
    components = [c["properties"]["componentSpec"] for c in fake_aml.state.components.values()]
    assert any("export AML_PARAMETER_greeting='${{inputs.greeting}}'" in c.get("command", "") for c in components)
    assert run.wait_for_completion(show_output=False) == "Completed"


def test_a_hyperdrive_steps_training_outputs_come_from_a_node_after_its_sweep_node(fake_aml, cloud_workspace):
    from acpt_estimator.v1.core.script_run_config import ScriptRunConfig
    from acpt_estimator.v1.pipeline.core import TrainingOutput
    from acpt_estimator.v1.pipeline.steps import HyperDriveStep, HyperDriveStepRun
    from acpt_estimator.v1.train.hyperdrive import GridParameterSampling, HyperDriveConfig, PrimaryMetricGoal, choice
    from tests.fake_aml.state import JobScript

    trials = ((({"quality": 1}, JobScript(metrics={"accuracy": [0.2, 0.4]})),
               ({"quality": 3}, JobScript(metrics={"accuracy": [0.5, 0.9]}))))
    fake_aml.script_next_job(JobScript(nodes={"tune": JobScript(children=trials)}))
    metrics = PipelineData("metrics_data", pipeline_output_name="metrics_output")
    saved = PipelineData("saved_model", training_output=TrainingOutput("Model", model_file="outputs/model.txt"))
    config = HyperDriveConfig(run_config=ScriptRunConfig(SRC, script="hd_trial.py", compute_target="gpu-cluster"),
                              hyperparameter_sampling=GridParameterSampling({"quality": choice(1, 3)}),
                              primary_metric_name="accuracy", primary_metric_goal=PrimaryMetricGoal.MAXIMIZE,
                              max_total_runs=2)
    tune = HyperDriveStep("tune", config, estimator_entry_script_arguments=[], outputs=[saved],
                          metrics_output=metrics)
    report = PythonScriptStep("read_in.py", name="report", arguments=["--in", metrics], inputs=[metrics],
                              source_directory=SRC, compute_target="cpu-cluster")
    run = Experiment(cloud_workspace, "cloud-sweep-outputs").submit(Pipeline(cloud_workspace, [tune, report]))
    (put,) = [r for r in fake_aml.calls("PUT", r"/jobs/[^/]+$") if r.status in (200, 201)]
    jobs = put.json()["properties"]["jobs"]
    assert sorted(jobs) == ["report", "tune", "tune_training_outputs"]
    writer = jobs["tune_training_outputs"]
    assert writer["type"] == "command" and writer["inputs"]["acpt_after_tune"]["value"] == \
        "${{parent.jobs.tune.outputs.acpt_done}}"
    assert jobs["report"]["inputs"]["metrics_data"]["value"] == \
        "${{parent.jobs.tune_training_outputs.outputs.metrics_data}}"
    components = [c["properties"]["componentSpec"] for c in fake_aml.state.components.values()]
    (spec,) = [c for c in components if "write_training_outputs.py" in c.get("command", "")]
    assert spec["outputs"]["metrics_data"]["type"] == spec["outputs"]["saved_model"]["type"] == "uri_file"
    assert "--model-file ${{outputs.saved_model}} outputs/model.txt --metrics ${{outputs.metrics_data}}" in \
        spec["command"]
    assert run.wait_for_completion(show_output=False) == "Completed"
    assert sorted(s.name for s in run.get_steps()) == ["report", "tune"]  # the writer is no v1 step
    (writer_job,) = [j for j in fake_aml.state.jobs.values() if j.node == "tune_training_outputs"]
    hd = HyperDriveStepRun(run.find_step_run("tune")[0])
    assert hd.get_output_data("metrics_data").path_on_datastore == f"azureml/{writer_job.name}/metrics_data"
    assert hd.get_output_data("saved_model").path_on_datastore == f"azureml/{writer_job.name}/saved_model"
    assert run.get_pipeline_output("metrics_output").path_on_datastore == f"azureml/{writer_job.name}/metrics_data"
