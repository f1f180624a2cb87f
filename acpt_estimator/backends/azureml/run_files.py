"""A cloud run's files (the run-history artifact service) and metrics (the workspace's MLflow REST API)."""

from __future__ import annotations

import os
import urllib.parse

from .client import azure_errors, services

_ORIGIN = "ExperimentRun"


def list_files(workspace, run_id: str) -> list[str]:
    """Every artifact path of the run: outputs/..., logs/..., user_logs/... (v1 ``get_file_names``)."""
    svc = services(workspace)
    url = svc.artifacts(f"/{_ORIGIN}/dcid.{run_id}")
    names, token = [], None
    with azure_errors(workspace, f"list the files of run {run_id!r}"):
        while True:
            page = svc.get_json(url, params={"continuationToken": token} if token else None)
            names.extend(item["path"] for item in page.get("value") or [])
            token = page.get("continuationToken")
            if not token:
                break
    return sorted(names)


def download(workspace, run_id: str, name: str, destination: str) -> str:
    """Write artifact ``name`` to ``destination`` (streamed; parent folders created)."""
    svc = services(workspace)
    quoted = urllib.parse.quote(name)
    with azure_errors(workspace, f"download {name!r} from run {run_id!r}"):
        info = svc.get_json(svc.artifacts(f"/contentinfo/{_ORIGIN}/dcid.{run_id}/{quoted}"))
        response = svc.send("GET", info["contentUri"], authed=False, stream=True)
        folder = os.path.dirname(os.path.abspath(destination))
        os.makedirs(folder, exist_ok=True)
        partial = destination + ".partial"
        with open(partial, "wb") as handle:
            for chunk in response.iter_bytes():
                handle.write(chunk)
        os.replace(partial, destination)
    return destination


def metrics(workspace, run_id: str, name=None) -> dict:
    """v1 semantics from MLflow: a metric logged once is a scalar, logged several times a list (by step)."""
    from ...exceptions import ExperimentExecutionException, UserErrorException

    try:
        from mlflow.exceptions import MlflowException
        from mlflow.store.tracking.rest_store import RestStore
        from mlflow.utils.rest_utils import MlflowHostCreds
    except ImportError:
        raise UserErrorException("run.get_metrics() reads the workspace's MLflow tracking and needs MLflow: "
                                 "pip install mlflow-skinny") from None

    svc = services(workspace)
    host = svc.mlflow
    store = RestStore(lambda: MlflowHostCreds(host, token=svc.token()))
    try:
        run = store.get_run(run_id)
        keys = [name] if name is not None else sorted(run.data.metrics)
        result = {}
        for key in keys:
            if key not in run.data.metrics:
                continue
            history = sorted(store.get_metric_history(run_id, key), key=lambda m: (m.step, m.timestamp))
            values = [m.value for m in history]
            result[key] = values[0] if len(values) == 1 else values
        return result
    except MlflowException as err:
        if getattr(err, "error_code", "") == "RESOURCE_DOES_NOT_EXIST":
            return {}  # no metric was logged yet: the MLflow run appears with the first one
        raise ExperimentExecutionException(
            f"Could not read the metrics of run {run_id!r} from the workspace's MLflow tracking "
            f"({str(err).splitlines()[0] if str(err) else type(err).__name__}).") from None
