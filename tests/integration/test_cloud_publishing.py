"""Published pipelines and schedules on an Azure ML workspace, through the real MLClient against the loopback fake:
a registered pipeline component, resubmitted with new inputs; JobSchedules created, listed, updated, disabled."""

from __future__ import annotations

import datetime
import os

import pytest

from acpt_estimator.exceptions import V1NotSupportedException
from acpt_estimator.v1.pipeline.core import (Pipeline, PipelineData, PipelineParameter, PublishedPipeline, Schedule,
                                             ScheduleRecurrence, TimeZone)
from acpt_estimator.v1.pipeline.steps import PythonScriptStep
from tests.fake_aml.fixtures import *  # noqa: F401,F403

pytestmark = pytest.mark.integration
SRC = os.path.join(os.path.dirname(__file__), os.pardir, "data", "pipeline_steps")


@pytest.fixture(autouse=True)
def _fast_lro(monkeypatch):
    """azure-ai-ml polls a schedule's creation every 5 s; the fake's operations are done at once."""
    from azure.ai.ml.constants._common import LROConfigurations

    monkeypatch.setattr(LROConfigurations, "POLL_INTERVAL", 0)


def _pipeline(ws):
    data = PipelineData("written", datastore=ws.get_default_datastore())
    text = PipelineParameter("text", "first")
    write = PythonScriptStep("write_out.py", name="write", arguments=["--out", data, "--text", text],
                             outputs=[data], source_directory=SRC, compute_target="cpu-cluster")
    read = PythonScriptStep("read_in.py", name="read", arguments=["--in", data], inputs=[data],
                            source_directory=SRC, compute_target="cpu-cluster")
    return Pipeline(ws, [write, read])


def _registered(fake_aml):
    return {key: value for key, value in fake_aml.state.components.items() if key[0] != "azureml_anonymous"}


def test_a_published_pipeline_is_a_pipeline_component_resubmitted_with_new_inputs(fake_aml, cloud_workspace):
    published = _pipeline(cloud_workspace).publish("Nightly Train", description="nightly", version="1.0")
    assert published.id == "nightly_train_" + published.id.split("_")[-1].split(":")[0] + ":1.0"
    ((name, version), resource) = next(iter(_registered(fake_aml).items()))
    assert (published.id, version) == (f"{name}:1.0", "1.0")
    spec = resource["properties"]["componentSpec"]
    assert spec["type"] == "pipeline" and sorted(spec["jobs"]) == ["read", "write"]
    assert resource["properties"]["description"] == "nightly" and spec["display_name"] == "Nightly Train"
    assert published.get_step_names() == ["write", "read"] and published.total_run_steps == 2
    again = PublishedPipeline.get(cloud_workspace, published.id)
    assert (again.name, again.version, again.status) == ("Nightly Train", "1.0", "Active")
    assert [p.id for p in PublishedPipeline.list(cloud_workspace)] == [published.id]

    run = published.submit(cloud_workspace, "published-runs", pipeline_parameters={"text": "second"})
    (put,) = [r for r in fake_aml.calls("PUT", r"/jobs/[^/]+$") if r.status in (200, 201)]
    body = put.json()["properties"]
    assert body["jobType"] == "Pipeline" and body["componentId"].endswith(f"/components/{name}/versions/1.0")
    assert body["inputs"]["text"] == {"jobInputType": "literal", "value": "second"}
    assert body["experimentName"] == "published-runs" and body["tags"]["azureml.pipelineid"] == published.id
    assert run.wait_for_completion(show_output=False) == "Completed"
    assert sorted(s.name for s in run.get_steps()) == ["read", "write"]  # the service ran the component's nodes
    with pytest.raises(Exception, match="pipeline_parameters \\['nope'\\]"):
        published.submit(cloud_workspace, "published-runs", pipeline_parameters={"nope": 1})

    published.disable()
    assert fake_aml.state.components[(name, "1.0")]["properties"]["isArchived"] is True
    assert published.status == "Disabled"
    assert PublishedPipeline.list(cloud_workspace) == []
    assert [p.status for p in PublishedPipeline.list(cloud_workspace, active_only=False)] == ["Disabled"]
    with pytest.raises(ValueError, match="Disabled; enable"):
        published.submit(cloud_workspace, "published-runs")
    published.enable()
    assert PublishedPipeline.get(cloud_workspace, published.id).status == "Active"

    newer = run.publish_pipeline("Nightly Train", "from the run", None)  # no version: the next number
    assert newer.version == "1" and newer.id == f"{name}:1"
    with pytest.raises(V1NotSupportedException, match="no batch endpoint deploys it.*PipelineEndpoint.publish"):
        newer.endpoint  # a REST URL once a PipelineEndpoint deploys it (test_cloud_pipeline_endpoint.py)


def test_a_schedule_is_a_v2_job_schedule_created_listed_updated_and_disabled(fake_aml, cloud_workspace):
    published = _pipeline(cloud_workspace).publish("nightly", version="3")
    recurrence = ScheduleRecurrence(frequency="Week", interval=2, start_time=datetime.datetime(2026, 3, 1, 6, 30),
                                    time_zone=TimeZone.WEuropeStandardTime, hours=[6, 18],
                                    week_days=["Monday", "Friday"])
    schedule = Schedule.create(cloud_workspace, "Nightly schedule", published.id, "scheduled",
                               recurrence=recurrence, description="twice a week", pipeline_parameters={"text": "s"})
    (put,) = fake_aml.calls("PUT", r"/schedules/[^/]+$")
    assert put.status == 201 and put.path.endswith("/schedules/Nightly-schedule-" + schedule.id.split("-")[-1])
    body = put.json()["properties"]
    assert body["trigger"] == {"triggerType": "Recurrence", "frequency": "week", "interval": 2,
                               "startTime": "2026-03-01T06:30:00", "timeZone": "W. Europe Standard Time",
                               "schedule": {"hours": [6, 18], "minutes": [0], "weekDays": ["monday", "friday"]}}
    job = body["action"]["jobDefinition"]
    assert job["jobType"] == "Pipeline" and job["componentId"].endswith("/components/nightly/versions/3")
    assert job["inputs"]["text"]["value"] == "s" and job["experimentName"] == "scheduled"
    assert (schedule.name, schedule.status, schedule.pipeline_id) == ("Nightly schedule", "Active", published.id)
    assert schedule.recurrence.hours == [6, 18] and schedule.recurrence.week_days == ["Monday", "Friday"]
    assert schedule.recurrence.time_zone is TimeZone.WEuropeStandardTime

    assert [s.id for s in Schedule.list(cloud_workspace)] == [schedule.id]
    fetched = Schedule.get(cloud_workspace, schedule.id)
    assert (fetched.description, fetched.recurrence.frequency, fetched.recurrence.interval) == ("twice a week",
                                                                                               "Week", 2)
    fetched.update(recurrence=ScheduleRecurrence(frequency="Day", interval=1, start_time=datetime.datetime(
        2026, 3, 2, 4, 0), time_zone=TimeZone.TokyoStandardTime), pipeline_parameters={"text": "updated"})
    trigger = fake_aml.state.schedules[schedule.id]["trigger"]
    assert (trigger["frequency"], trigger["timeZone"], trigger["startTime"]) == ("day", "Tokyo Standard Time",
                                                                                 "2026-03-02T04:00:00")
    assert trigger["schedule"] == {"hours": [], "minutes": []}  # azure-ai-ml's form of "no pattern"
    assert fake_aml.state.schedules[schedule.id]["action"]["jobDefinition"]["inputs"]["text"]["value"] == "updated"
    assert fetched.recurrence.time_zone is TimeZone.TokyoStandardTime and fetched.recurrence.hours is None

    fetched.disable()
    assert fetched.status == "Disabled" and fake_aml.state.schedules[schedule.id]["isEnabled"] is False
    assert Schedule.list(cloud_workspace) == [] and len(Schedule.list(cloud_workspace, active_only=False)) == 1
    fetched.enable()
    assert Schedule.get(cloud_workspace, schedule.id).status == "Active"
    with pytest.raises(V1NotSupportedException, match="Event Grid"):
        Schedule.create(cloud_workspace, "on-change", published.id, "scheduled", datastore="workspaceblobstore")
    with pytest.raises(V1NotSupportedException, match="Schedules"):
        fetched.get_pipeline_runs()
    with pytest.raises(Exception, match="No pipeline endpoint 'scoring'.*PipelineEndpoint.list"):
        Schedule.create_for_pipeline_endpoint(cloud_workspace, "e", "scoring", "scheduled", recurrence=recurrence)
