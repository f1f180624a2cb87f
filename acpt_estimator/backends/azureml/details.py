"""A cloud run's details as run history holds them, in v1's shape: the run definition merged field by field with
the submitted v2 job, ``submittedBy`` from the run's creator, tags removed through run history's tag deletion."""

from __future__ import annotations

from .client import azure_errors, services


def _empty(value) -> bool:
    return value is None or value == "" or value == [] or value == {}


def merge_definition(from_job: dict, from_service) -> dict:
    """The service's runDefinition, with every field the v2 job states filled in from the job: run history sends
    ``script: null, arguments: []`` for v2 command jobs, which must not hide what the job runs."""
    merged = dict(from_service or {})
    for key, value in from_job.items():
        theirs = merged.get(key)
        if isinstance(value, dict) and isinstance(theirs, dict):
            merged[key] = merge_definition(value, theirs)
        elif not _empty(value) or key not in merged:
            merged[key] = value
    return merged


def submitted_by(details: dict):
    """v1 showed ``run_dto.created_by.user_name`` (azureml/core/run.py get_details); run history's RunDetails and
    Run carry ``createdBy`` (a User), not ``submittedBy``."""
    return details.get("submittedBy") or (details.get("createdBy") or {}).get("userName")


def remove_tags(workspace, run_id: str, keys) -> None:
    """Run history's tag deletion (``DELETE .../runs/{runId}/tags`` with the names, the generated run-history
    client's ``delete_tags``)."""
    svc = services(workspace)
    with azure_errors(workspace, f"remove tags of run {run_id!r}"):
        svc.send("DELETE", svc.history(f"/runs/{run_id}/tags"), json=[str(k) for k in keys])
