"""v1 schedules of published pipelines as v2 ``JobSchedule``s: a ``RecurrenceTrigger`` (frequency, interval,
start time and Windows time zone, hours/minutes/week days) whose job is a pipeline job of the published pipeline's
component. Records have the local store's keys (backends/local/schedule_store.py). Imports azure-ai-ml lazily."""

from __future__ import annotations

import datetime as dt

from ...exceptions import UserErrorException
from ...names import V1_NAME_TAG, v2_name
from . import publishing
from .client import azure_errors, ml_client

PIPELINE_TAG = "azureml.pipelineid"  # the published pipeline a schedule submits (v1's pipeline_id)
ENDPOINT_TAG = "azureml.pipelineendpointid"  # the pipeline endpoint whose default it was made from, if any


def trigger(recurrence: dict, now: dt.datetime | None = None):
    """v1's recurrence (ScheduleRecurrence._to_dict) -> the v2 RecurrenceTrigger that fires at the same times."""
    from azure.ai.ml.constants import TimeZone
    from azure.ai.ml.entities import RecurrencePattern, RecurrenceTrigger

    from ...pipelines.schedules import zone

    name = recurrence.get("time_zone") or "UTC"
    tz = zone(name)
    start = dt.datetime.fromisoformat(recurrence["start_time"]) if recurrence.get("start_time") else \
        (now or dt.datetime.now(dt.timezone.utc))
    local = start.astimezone(tz) if start.tzinfo else start  # v1: a naive start time is in time_zone already
    pattern = None
    hours, minutes, week_days = recurrence.get("hours"), recurrence.get("minutes"), recurrence.get("week_days")
    if recurrence["frequency"] in ("Day", "Week") and (hours or minutes or week_days):
        # v2 needs hours and minutes together; v1 filled the missing ones from the start time (minutes: 0 with hours)
        pattern = RecurrencePattern(hours=list(hours or [local.hour]),
                                    minutes=list(minutes or ([0] if hours else [local.minute])),
                                    week_days=[d.lower() for d in week_days] if week_days else None)
    return RecurrenceTrigger(frequency=recurrence["frequency"].lower(), interval=int(recurrence["interval"]),
                             schedule=pattern, start_time=local.replace(tzinfo=None).isoformat(timespec="seconds"),
                             time_zone=TimeZone(name))


def _recurrence(trigger_) -> dict:
    """A v2 RecurrenceTrigger read back as v1's recurrence dict."""
    pattern = getattr(trigger_, "schedule", None)  # the SDK reads "no pattern" back as empty hours and minutes
    time_zone = trigger_.time_zone

    def listed(field):
        values = getattr(pattern, field, None) if pattern is not None else None
        return list(values) if values else None

    week_days = listed("week_days")
    return {"frequency": trigger_.frequency.capitalize(), "interval": trigger_.interval,
            "start_time": str(trigger_.start_time).replace(" ", "T") if trigger_.start_time else None,
            "time_zone": getattr(time_zone, "value", time_zone), "hours": listed("hours"), "minutes": listed("minutes"),
            "week_days": [d.capitalize() for d in week_days] if week_days else None}


def _record(schedule) -> dict:
    tags = dict(schedule.tags or {})
    job = schedule.create_job
    return {"id": schedule.name, "name": tags.get(V1_NAME_TAG) or schedule.display_name or schedule.name,
            "description": schedule.description, "pipelineId": tags.get(PIPELINE_TAG),
            "status": "Active" if schedule.is_enabled else "Disabled", "recurrence": _recurrence(schedule.trigger),
            "continueOnStepFailure": getattr(getattr(job, "settings", None), "continue_on_step_failure", None),
            "experimentName": getattr(job, "experiment_name", None), "pipelineEndpoint": tags.get(ENDPOINT_TAG)}


def _job(record: dict, values: dict, experiment_name: str, continue_on_step_failure):
    cont = record["continueOnStepFailure"] if continue_on_step_failure is None else continue_on_step_failure
    return publishing.pipeline_job(record, values, experiment_name, bool(cont), tags={PIPELINE_TAG: record["id"]})


def _save(workspace, schedule, action: str, wait_timeout):
    client = ml_client(workspace)
    with azure_errors(workspace, action):
        return _record(client.schedules.begin_create_or_update(schedule).result(timeout=wait_timeout))


def to_job_schedule(name: str, record: dict, values: dict, experiment_name: str, recurrence: dict, description,
                    continue_on_step_failure, now: dt.datetime | None = None, endpoint=None):
    """The v2 JobSchedule of a v1 ``Schedule.create`` (no request): named after ``name`` (a v2-valid form of it),
    submitting published pipeline ``record`` (from publishing.get) with parameter ``values``."""
    from azure.ai.ml.entities import JobSchedule

    if not name:
        raise UserErrorException("Schedule.create(name=...): a schedule needs a name.")
    job = _job(record, values, experiment_name, continue_on_step_failure)
    return JobSchedule(name=v2_name(name), display_name=name, description=description,
                       trigger=trigger(recurrence, now), create_job=job,
                       tags={V1_NAME_TAG: name, PIPELINE_TAG: record["id"],
                             **({ENDPOINT_TAG: endpoint} if endpoint else {})})


def create(workspace, name: str, record: dict, values: dict, experiment_name: str, recurrence: dict, description,
           continue_on_step_failure, wait_timeout=None, endpoint=None) -> dict:
    schedule = to_job_schedule(name, record, values, experiment_name, recurrence, description,
                               continue_on_step_failure, endpoint=endpoint)
    return _save(workspace, schedule, f"create schedule {name!r}", wait_timeout)


def _get(workspace, schedule_id: str):
    from azure.core.exceptions import ResourceNotFoundError

    try:
        with azure_errors(workspace, f"read schedule {schedule_id!r}"):
            return ml_client(workspace).schedules.get(schedule_id)
    except ResourceNotFoundError:
        raise UserErrorException(f"No schedule {schedule_id!r} in workspace {workspace.name!r}; list them with "
                                 "Schedule.list(ws).") from None


def get(workspace, schedule_id: str) -> dict:
    return _record(_get(workspace, schedule_id))


def all_schedules(workspace, active_only: bool = True) -> list:
    """The workspace's job schedules that submit published pipelines (others are not v1 schedules)."""
    view = "EnabledOnly" if active_only else "All"
    with azure_errors(workspace, "list schedules"):
        found = list(ml_client(workspace).schedules.list(list_view_type=view))
    return [_record(s) for s in found if PIPELINE_TAG in (s.tags or {})]


def set_enabled(workspace, schedule_id: str, enabled: bool, wait_timeout=None) -> dict:
    client = ml_client(workspace)
    with azure_errors(workspace, f"{'enable' if enabled else 'disable'} schedule {schedule_id!r}"):
        poller = client.schedules.begin_enable(schedule_id) if enabled else client.schedules.begin_disable(schedule_id)
        return _record(poller.result(timeout=wait_timeout))


def update(workspace, schedule_id: str, name=None, description=None, recurrence=None, values=None, status=None,
           continue_on_step_failure=None, wait_timeout=None) -> dict:
    """Change what v1's ``Schedule.update`` names (``values``: new parameter values, for the whole job); the rest of
    the schedule stays as it is."""
    schedule = _get(workspace, schedule_id)
    record = _record(schedule)
    if name is not None:
        schedule.display_name = name
        schedule.tags = dict(schedule.tags or {}, **{V1_NAME_TAG: name})
    if description is not None:
        schedule.description = description
    if recurrence is not None:
        schedule.trigger = trigger(recurrence)
    if values is not None:
        schedule.create_job = _job(publishing.get(workspace, record["pipelineId"]), values, record["experimentName"],
                                   continue_on_step_failure if continue_on_step_failure is not None
                                   else record["continueOnStepFailure"])
    elif continue_on_step_failure is not None:
        schedule.create_job.settings.continue_on_step_failure = bool(continue_on_step_failure)
    if status is not None:
        schedule._is_enabled = status == "Active"  # as azure-ai-ml's own begin_enable/begin_disable do
    return _save(workspace, schedule, f"update schedule {schedule_id!r}", wait_timeout)
