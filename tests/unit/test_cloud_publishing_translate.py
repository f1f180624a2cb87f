"""What cloud publishing and schedules send, pinned without a service: the registered pipeline component and the
JobSchedule (golden files), v1 time zones in v2 and on this machine, v2-valid component names."""

from __future__ import annotations

import datetime as dt
import json
import zoneinfo

import pytest

from acpt_estimator.backends.azureml import publishing, schedules
from acpt_estimator.pipelines import codec
from acpt_estimator.pipelines import schedules as local_schedules
from acpt_estimator.pipelines.windows_zones import WINDOWS_TO_IANA
from acpt_estimator.v1.pipeline.core.schedule import ScheduleRecurrence, TimeZone

from .pipeline_golden_cases import CASES
from .golden import check_golden
from .test_pipeline_golden import _normalise_node

COMPONENT_ID = ("/subscriptions/s/resourceGroups/rg/providers/Microsoft.MachineLearningServices/workspaces/ws/"
                "components/nightly_train_0c8e9a6b/versions/1.0")


def _spec():
    return CASES["pipeline_prep_mpi_train"]()._to_spec()


def test_a_published_pipeline_is_a_named_pipeline_component_that_carries_its_spec():
    spec = _spec()
    component = publishing.to_pipeline_component(spec, "Nightly Train", "1.0", "nightly", True)
    assert component._validate().passed
    data = component._to_dict()
    assert json.loads(data["tags"].pop(publishing.SPEC_PROPERTY)) == codec.encode(spec)  # paths differ per machine
    for node in data["jobs"].values():
        _normalise_node(node)
    check_golden("published_pipeline_component", data)
    assert data["name"] == publishing.component_name("Nightly Train") and data["version"] == "1.0"


def _record():
    return {"id": "nightly_train_0c8e9a6b:1.0", "name": "Nightly Train", "spec": _spec(), "componentId": COMPONENT_ID,
            "continueOnStepFailure": False}


def test_a_schedule_is_a_job_schedule_whose_job_runs_the_component_with_the_schedules_parameters():
    recurrence = ScheduleRecurrence("Week", 2, dt.datetime(2026, 3, 1, 6, 30), TimeZone.WEuropeStandardTime,
                                    hours=[6, 18], week_days=["Monday", "Friday"])
    recurrence.validate()
    schedule = schedules.to_job_schedule("Nightly schedule", _record(), {"rows": 7}, "scheduled",
                                         recurrence._to_dict(dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc)),
                                         "twice a week", None)
    assert schedule._validate().passed
    check_golden("job_schedule_weekly", schedule._to_dict())
    assert schedule.create_job.component == COMPONENT_ID and schedule.create_job.inputs["rows"]._data == 7


@pytest.mark.parametrize("frequency, interval, hours, minutes, expected", [
    ("Minute", 15, None, None, {"frequency": "minute", "interval": 15, "schedule": None}),
    ("Month", 1, None, None, {"frequency": "month", "interval": 1, "schedule": None}),
    ("Day", 1, [3], None, {"frequency": "day", "interval": 1, "schedule": {"hours": [3], "minutes": [0]}}),
    ("Day", 1, None, [5, 35], {"frequency": "day", "interval": 1, "schedule": {"hours": [22], "minutes": [5, 35]}}),
])
def test_recurrence_triggers_fill_what_v1_filled_from_the_start_time(frequency, interval, hours, minutes, expected):
    recurrence = ScheduleRecurrence(frequency, interval, dt.datetime(2026, 5, 4, 22, 10), TimeZone.IndiaStandardTime,
                                    hours=hours, minutes=minutes)
    recurrence.validate()
    trigger = schedules.trigger(recurrence._to_dict(dt.datetime.now(dt.timezone.utc)))
    pattern = trigger.schedule  # the SDK makes "no pattern" an empty one
    got = {"frequency": trigger.frequency, "interval": trigger.interval,
           "schedule": {"hours": pattern.hours, "minutes": pattern.minutes} if pattern and pattern.hours else None}
    assert got == expected
    assert (trigger.start_time, trigger.time_zone) == ("2026-05-04T22:10:00", "India Standard Time")


def test_an_aware_start_time_is_given_to_v2_as_the_wall_time_of_the_time_zone():
    start = dt.datetime(2026, 7, 1, 12, 0, tzinfo=dt.timezone.utc)
    trigger = schedules.trigger({"frequency": "Hour", "interval": 1, "start_time": start.isoformat(),
                                 "time_zone": "Pacific Standard Time"})
    assert trigger.start_time == "2026-07-01T05:00:00"  # PDT, UTC-7


def test_every_v1_time_zone_is_a_v2_time_zone_and_a_local_iana_zone():
    from azure.ai.ml.constants import TimeZone as V2TimeZone

    assert {z.value for z in TimeZone} == set(WINDOWS_TO_IANA) == {z.value for z in V2TimeZone}
    assert len(WINDOWS_TO_IANA) == 131
    for name, iana in WINDOWS_TO_IANA.items():
        assert local_schedules.zone(name) == zoneinfo.ZoneInfo(iana)


@pytest.mark.parametrize("name, when, offset_minutes", [
    ("India Standard Time", dt.datetime(2026, 1, 15, 12), 330),
    ("Nepal Standard Time", dt.datetime(2026, 1, 15, 12), 345),
    ("Pacific Standard Time", dt.datetime(2026, 1, 15, 12), -480),
    ("Pacific Standard Time", dt.datetime(2026, 7, 15, 12), -420),
    ("AUS Eastern Standard Time", dt.datetime(2026, 1, 15, 12), 660),
    ("Dateline Standard Time", dt.datetime(2026, 1, 15, 12), -720),
    ("UTC+12", dt.datetime(2026, 1, 15, 12), 720),
    ("Chatham Islands Standard Time", dt.datetime(2026, 7, 15, 12), 765),
    ("Line Islands Standard Time", dt.datetime(2026, 1, 15, 12), 840),
])
def test_windows_names_carry_their_utc_offsets(name, when, offset_minutes):
    offset = when.replace(tzinfo=local_schedules.zone(name)).utcoffset()
    assert offset == dt.timedelta(minutes=offset_minutes)


def test_local_schedules_fire_at_the_wall_time_of_any_v1_time_zone():
    recurrence = {"frequency": "Day", "interval": 1, "start_time": "2026-01-01T09:00:00",
                  "time_zone": "Nepal Standard Time", "hours": [9], "minutes": [0], "week_days": None}
    after = dt.datetime(2026, 1, 5, tzinfo=dt.timezone.utc)
    fired = list(local_schedules.slots(recurrence, after, after + dt.timedelta(days=1)))
    assert fired == [dt.datetime(2026, 1, 5, 3, 15, tzinfo=dt.timezone.utc)]  # 09:00 at UTC+5:45


def test_an_unknown_time_zone_name_is_refused_with_the_fix():
    from acpt_estimator.exceptions import UserErrorException

    with pytest.raises(UserErrorException, match="'Mars Standard Time' is not one of v1's TimeZone values"):
        local_schedules.zone("Mars Standard Time")


@pytest.mark.parametrize("name, expected", [("nightly", "nightly"), ("train_2", "train_2")])
def test_valid_component_names_are_kept(name, expected):
    assert publishing.component_name(name) == expected


@pytest.mark.parametrize("name", ["Nightly Train", "2024-retrain", "ÜberPipeline", "a.b", "_x"])
def test_other_names_become_valid_distinct_component_names(name):
    import re

    mapped = publishing.component_name(name)
    assert re.fullmatch(r"[a-z][a-z0-9_]*", mapped) and mapped == publishing.component_name(name)
    assert mapped != publishing.component_name(name + " ")


def test_an_id_that_is_not_name_colon_version_is_refused():
    from acpt_estimator.exceptions import UserErrorException

    with pytest.raises(UserErrorException, match="'<component name>:<version>'"):
        publishing._split_id("3fa85f64-5717-4562-b3fc-2c963f66afa6")
