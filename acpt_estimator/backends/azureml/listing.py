"""Runs and experiments as run history lists them: filtered on the service, read page by page as the caller
iterates (``Experiment.get_runs``, ``Experiment.list``, ``ComputeTarget.get_active_runs``).

Routes and bodies: azure-ai-ml 1.35's generated run-history client (``runs:query`` with QueryParams, ``experiments:
query`` with ExperimentQueryParams, ``computes/{name}/runs`` with ``$filter``/``$continuationtoken``); the filter
grammar is what azureml-core 1.61 sent (azureml/_restclient/_odata: ``(Status eq "Running")``, ``(Tags/k eq "v")``,
``(ParentRunId eq null)``, ``(RunType eq "hyperdrive" or Properties/azureml.runsource eq "hyperdrive")``).
"""

from __future__ import annotations

from .client import azure_errors, services

PAGE = 100
ORDER = "StartTimeUtc desc"  # v1's order for an experiment's runs


def _quoted(value) -> str:
    return "null" if value is None else '"{}"'.format(str(value).replace('"', '\\"'))


def _key_filters(field: str, wanted) -> list:
    """A dict matches keys and values; a name or a list of names matches keys (v1's tags/properties filter)."""
    if not wanted:
        return []
    if isinstance(wanted, dict):
        return [f"({field}/{k} eq {_quoted(v)})" for k, v in wanted.items()]
    names = [wanted] if isinstance(wanted, str) else list(wanted)
    return [f"({field}/{k} ne null or {field}/{k} eq null)" for k in names]


def odata_filter(*, status=None, tags=None, properties=None, run_type=None, include_children=True) -> str | None:
    clauses = _key_filters("Tags", tags) + _key_filters("Properties", properties)
    if status:  # one state or several (get_active_runs: Queued, Preparing, Running, ...)
        states = [status] if isinstance(status, str) else list(status)
        clauses.append("(" + " or ".join(f"Status eq {_quoted(s)}" for s in states) + ")")
    if run_type is not None:
        clauses.append(f"(RunType eq {_quoted(run_type)} or Properties/azureml.runsource eq {_quoted(run_type)})")
    if not include_children:
        clauses.append("(ParentRunId eq null)")
    if not clauses:
        return None
    return clauses[0] if len(clauses) == 1 else "(" + " and ".join(clauses) + ")"


def _paged_post(workspace, url: str, body: dict, action: str):
    svc, token = services(workspace), None
    while True:
        with azure_errors(workspace, action):
            page = svc.send("POST", url, json={**body, **({"continuationToken": token} if token else {})}).json()
        yield from page.get("value") or []
        token = page.get("continuationToken")
        if not token:
            return


def experiment_runs(workspace, experiment_name: str, **filters):
    """Run history's Run records of one experiment, newest first, one page at a time."""
    svc = services(workspace)
    body = {"filter": odata_filter(**filters), "orderBy": ORDER, "top": PAGE}
    yield from _paged_post(workspace, svc.history(f"/experiments/{experiment_name}/runs:query"),
                           {k: v for k, v in body.items() if v is not None},
                           f"list the runs of experiment {experiment_name!r}")


def compute_jobs(workspace, compute_name: str, **filters):
    """The v2 jobs of the runs on one compute target (run history's records, filtered there), one page at a time;
    each is read as a job because a Run record names its experiment by id only."""
    from .client import ml_client

    for record in _compute_records(workspace, compute_name, **filters):
        with azure_errors(workspace, f"read run {record['runId']!r}"):
            yield ml_client(workspace).jobs.get(record["runId"])


def _compute_records(workspace, compute_name: str, **filters):
    svc, token = services(workspace), None
    url = svc.history(f"/computes/{compute_name}/runs")
    wanted = odata_filter(**filters)
    while True:
        params = {k: v for k, v in (("$filter", wanted), ("$continuationtoken", token)) if v}
        with azure_errors(workspace, f"list the runs on compute target {compute_name!r}"):
            page = svc.get_json(url, params=params or None)
        yield from page.get("value") or []
        token = page.get("continuationToken")
        if not token:
            return


def experiment_names(workspace, view_type: str = "ActiveOnly") -> list:
    svc = services(workspace)
    found = _paged_post(workspace, svc.history("/experiments:query"), {"viewType": view_type, "top": PAGE},
                        "list the experiments")
    return list(dict.fromkeys(e["name"] for e in found if e.get("name")))


def run_from_record(experiment, record: dict):
    """A CloudRun (a CloudHyperDriveRun for a sweep) from a run-history Run record; the v2 job is read on use."""
    from . import stream
    from .run import CloudHyperDriveRun, CloudRun

    sweep = "hyperdrive" in (str(record.get("runType") or "").lower(),
                             str((record.get("properties") or {}).get("azureml.runsource") or "").lower())
    run = (CloudHyperDriveRun if sweep else CloudRun)(experiment, record["runId"])
    run._status = stream.v1_status(record.get("status"))
    return run
