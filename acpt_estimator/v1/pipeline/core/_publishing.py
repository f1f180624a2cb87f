"""Where publishing lives: the local store for local workspaces; Azure ML workspaces are refused for now."""

from __future__ import annotations

from acpt_estimator.target import offline_mode
from acpt_estimator.v1._refusal import refuse

CLOUD_REPLACEMENT = {
    "publish": "register the pipeline as a v2 pipeline component (acpt-estimator convert writes the pipeline job "
               "YAML; az ml component create, or ml_client.components.create_or_update(pipeline_job.component)) "
               "and, for a REST endpoint, a batch endpoint with a pipeline component deployment",
    "schedule": "a v2 JobSchedule: ml_client.schedules.begin_create_or_update(JobSchedule(name, trigger="
                "RecurrenceTrigger(frequency, interval, schedule=RecurrencePattern(hours, minutes, week_days), "
                "time_zone), create_job=pipeline_job))",
}


def check_local(workspace, member: str, kind: str = "publish") -> None:
    """Publishing and schedules are kept in the local store; on an Azure ML workspace they refuse (no silent no-op)."""
    if offline_mode() or getattr(workspace, "_offline", True):
        return
    refuse(member, "publishing pipelines and schedules to Azure ML is not available in this release (locally they "
                   "are kept in the store, and schedules run with `acpt-estimator schedules run-due`).",
           CLOUD_REPLACEMENT[kind])
