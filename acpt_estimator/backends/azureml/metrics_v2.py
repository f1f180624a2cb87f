"""A cloud run's metrics from run history's metric v2 API, the store azureml-core's ``run.log*`` writes to and
Azure ML keeps MLflow's numbers in: ``list`` the names, then ``full`` per metric, each following
``continuationToken`` (POST bodies as azure-ai-ml's generated ``_restclient/runhistory`` defines them)."""

from __future__ import annotations

from . import sdk
from .client import azure_errors, services


def _url(workspace, run_id: str, verb: str) -> str:
    return f"{services(workspace).api}/metric/v2.0{workspace.arm_id}/runs/{run_id}/{verb}"


def _post(workspace, url: str, body: dict):
    """The answer's JSON, or None for a 404 (a run without metrics yet, a metric it does not have)."""
    from azure.core.exceptions import HttpResponseError

    try:
        return services(workspace).send("POST", url, json=body).json()
    except HttpResponseError as err:
        if getattr(err, "status_code", None) == 404:
            return None
        raise


def names(workspace, run_id: str) -> list:
    found, token = [], None
    while True:
        body = _post(workspace, _url(workspace, run_id, "list"), {"continuationToken": token} if token else {})
        if body is None:
            return found
        page, token = sdk.metric_names_page(body)
        found.extend(page)
        if not token:
            return found


def metric(workspace, run_id: str, name: str):
    """One metric with every value (MetricV2 JSON), or None when the run has no such metric."""
    whole, token = None, None
    while True:
        request = {"metricName": name, **({"continuationToken": token} if token else {})}
        body = _post(workspace, _url(workspace, run_id, "full"), request)
        if body is None:
            return whole
        page, token = sdk.metric_page(body)
        if whole is None:
            whole = page
        else:
            whole["value"].extend(page["value"])
        if not token:
            return whole


def read(workspace, run_id: str, name=None) -> list:
    """Every metric of a run (or the one named) as MetricV2 JSON."""
    with azure_errors(workspace, f"read the metrics of run {run_id!r}"):
        wanted = [name] if name is not None else names(workspace, run_id)
        return [m for m in (metric(workspace, run_id, n) for n in wanted) if m is not None]
