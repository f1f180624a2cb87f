"""exp.submit(pipeline) through the real MLClient against the loopback HTTPS fake: one pipeline job, its steps."""

from __future__ import annotations

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
