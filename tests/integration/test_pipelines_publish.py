"""Published pipelines, endpoints and schedules in the local store: resubmitted with new parameters, and run by
``acpt-estimator schedules run-due``."""

from __future__ import annotations

import datetime
import os
import subprocess
import sys

import pytest

from acpt_estimator.pipelines import schedules as schedule_store
from acpt_estimator.v1.core.experiment import Experiment
from acpt_estimator.v1.pipeline.core import (Pipeline, PipelineData, PipelineEndpoint, PipelineParameter,
                                             PublishedPipeline, Schedule, ScheduleRecurrence, TimeZone)
from acpt_estimator.v1.pipeline.steps import PythonScriptStep
from tests.local_fixtures import local_workspace  # noqa: F401

pytestmark = pytest.mark.integration
SRC = os.path.join(os.path.dirname(__file__), os.pardir, "data", "pipeline_steps")


def _pipeline(ws):
    data = PipelineData("written")
    text = PipelineParameter("text", "first")
    write = PythonScriptStep("write_out.py", name="write", arguments=["--out", data, "--text", text], outputs=[data],
                             source_directory=SRC, compute_target="c")
    read = PythonScriptStep("read_in.py", name="read", arguments=["--in", data], inputs=[data],
                            source_directory=SRC, compute_target="c")
    return Pipeline(ws, [write, read])


def test_a_published_pipeline_is_resubmitted_with_new_parameters_and_served_by_an_endpoint(local_workspace):
    published = _pipeline(local_workspace).publish("nightly", description="d", version="1.0")
    assert PublishedPipeline.get(local_workspace, published.id).name == "nightly"
    assert [p.id for p in PublishedPipeline.list(local_workspace)] == [published.id]
    assert published.get_step_names() == ["write", "read"]
    run = published.submit(local_workspace, "published", pipeline_parameters={"text": "second"})
    run.wait_for_completion(show_output=False)
    assert run.find_step_run("read")[0].get_metrics()["read"] == "second"
    published.disable()
    assert PublishedPipeline.list(local_workspace) == [] and len(PublishedPipeline.list(local_workspace, False)) == 1
    with pytest.raises(ValueError, match="Disabled; enable"):
        published.submit(local_workspace, "published")
    published.enable()
    endpoint = PipelineEndpoint.publish(local_workspace, "scoring", "the scoring endpoint", published)
    newer = _pipeline(local_workspace).publish("nightly", version="2.0")
    endpoint.add_default(newer)
    assert PipelineEndpoint.get(local_workspace, name="scoring").default_version == "1"
    assert endpoint.get_pipeline().id == newer.id and endpoint.get_pipeline("0").id == published.id
    via_endpoint = endpoint.submit("endpoint-runs", pipeline_parameters={"text": "third"})
    via_endpoint.wait_for_completion(show_output=False)
    assert via_endpoint.find_step_run("read")[0].get_metrics()["read"] == "third"
    endpoint.disable()
    assert endpoint.reactivate("scoring-renamed") is endpoint  # v1: active again, under the name given
    assert (endpoint.name, endpoint.status) == ("scoring-renamed", "Active")
    assert PipelineEndpoint.get(local_workspace, name="scoring-renamed").status == "Active"
    again = run.publish_pipeline("from-run", "published from a run", "3")
    assert again.total_run_steps == 2


def test_schedules_run_when_due_through_the_command_line(local_workspace, tmp_path):
    published = _pipeline(local_workspace).publish("scheduled")
    start = datetime.datetime(2026, 1, 1, 8, 0)
    recurrence = ScheduleRecurrence(frequency="Minute", interval=5, start_time=start, time_zone=TimeZone.UTC)
    schedule = Schedule.create(local_workspace, "every-5-min", published.id, "scheduled-runs", recurrence,
                               pipeline_parameters={"text": "cron"})
    assert Schedule.list(local_workspace)[0].id == schedule.id
    with pytest.raises(ValueError, match="Can only specify hours if frequency is Week or Day"):
        Schedule.create(local_workspace, "bad", published.id, "x", ScheduleRecurrence("Hour", 1, hours=[3]))
    env = dict(os.environ)
    soon = (datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(minutes=6)).isoformat()
    early = subprocess.run([sys.executable, "-m", "acpt_estimator.cli", "schedules", "run-due"], env=env,
                           capture_output=True, text=True, timeout=180)
    assert "no schedule is due" in early.stdout  # created just now: its next 5-minute slot has not come
    out = subprocess.run([sys.executable, "-m", "acpt_estimator.cli", "schedules", "run-due", "--now", soon],
                         env=env, capture_output=True, text=True, timeout=180)
    assert out.returncode == 0, out.stderr
    assert "schedule 'every-5-min': started pipeline run" in out.stdout
    last = schedule.get_last_pipeline_run()
    assert last.get_status() == "Completed"
    assert last.find_step_run("read")[0].get_metrics()["read"] == "cron"
    second = subprocess.run([sys.executable, "-m", "acpt_estimator.cli", "schedules", "run-due", "--now", soon],
                            env=env, capture_output=True, text=True, timeout=180)
    assert "no schedule is due" in second.stdout  # the slot it fired for is done
    schedule.disable()
    assert Schedule.list(local_workspace) == []


def test_recurrence_slots_follow_v1_fields():
    utc = datetime.timezone.utc
    daily = {"frequency": "Week", "interval": 1, "start_time": "2026-01-05T00:00:00", "time_zone": "UTC",
             "hours": [9], "minutes": [30], "week_days": ["Monday", "Friday"]}
    fired = list(schedule_store.slots(daily, datetime.datetime(2026, 1, 5, tzinfo=utc),
                                      datetime.datetime(2026, 1, 13, tzinfo=utc)))
    assert [f.isoformat() for f in fired] == ["2026-01-05T09:30:00+00:00", "2026-01-09T09:30:00+00:00",
                                             "2026-01-12T09:30:00+00:00"]
    pacific = {"frequency": "Day", "interval": 2, "start_time": "2026-07-01T06:00:00",
               "time_zone": "Pacific Standard Time", "hours": None, "minutes": None, "week_days": None}
    fired = list(schedule_store.slots(pacific, datetime.datetime(2026, 7, 1, tzinfo=utc),
                                      datetime.datetime(2026, 7, 4, tzinfo=utc)))
    assert [f.isoformat() for f in fired] == ["2026-07-01T13:00:00+00:00", "2026-07-03T13:00:00+00:00"]
