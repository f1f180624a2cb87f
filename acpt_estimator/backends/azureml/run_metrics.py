"""A cloud run's v1 records: read from run history (metric v2 API and run tags), written through the workspace's
MLflow REST API (``/mlflow/v2.0``, as azureml-mlflow uses it) in the in-job Run's form (``job_runtime/_v1_records``).

On Azure ML both land in the one store: MLflow numbers are metric v2 scalars, the other records are run tags, so
one reader rebuilds what azureml-core, the job runtime and the driver logged.
"""

from __future__ import annotations

import contextlib
import os
import time

from ...exceptions import ExperimentExecutionException, UserErrorException
from ...tracking import from_metrics_v2, record, to_mlflow
from .client import azure_errors, first_line, services

def mlflow_store(workspace):
    try:
        from mlflow.store.tracking.rest_store import RestStore
        from mlflow.utils.rest_utils import MlflowHostCreds
    except ImportError:
        raise UserErrorException("Reading or logging metrics of a cloud run uses the workspace's MLflow tracking "
                                 "and needs MLflow: pip install mlflow-skinny") from None
    svc = services(workspace)
    host = svc.mlflow
    return RestStore(lambda: MlflowHostCreds(host, token=svc.token()))


@contextlib.contextmanager
def mlflow_errors(run_id: str, action: str):
    from mlflow.exceptions import MlflowException

    try:
        yield
    except MlflowException as err:
        raise ExperimentExecutionException(
            f"Could not {action} of run {run_id!r} in the workspace's MLflow tracking ({first_line(err)}).") from None


def read(workspace, run_id: str, name=None) -> tuple[list, dict]:
    """(records, tags) of a run: its metrics from run history's metric v2 API (what the image's azureml-core and
    MLflow both log to), and the records our writers keep as run tags (values MLflow has no type for)."""
    from . import metrics_v2

    tags = run_tags(workspace, run_id)
    metrics = metrics_v2.read(workspace, run_id, name)
    records = from_metrics_v2(metrics, tags)
    if name is not None:
        records = [r for r in records if r.get("n") == name]
    return records, tags


def run_tags(workspace, run_id: str) -> dict:
    """The run's tags as run history has them (MLflow's tags of the run are the same)."""
    svc = services(workspace)
    with azure_errors(workspace, f"read the tags of run {run_id!r}"):
        return dict(svc.get_json(svc.history(f"/runs/{run_id}")).get("tags") or {})


class Writer:
    """The driver's records on a cloud run (``run.log`` and friends outside the job)."""

    def __init__(self, workspace, run_id: str):
        self._workspace, self._run_id = workspace, run_id
        self._name = f"driver-{os.getpid()}"
        self._seq = self._last = 0
        self._store_obj = None

    def write(self, kind, name, value, step=None) -> None:
        from mlflow.entities import Metric, RunTag

        if self._store_obj is None:
            self._store_obj = mlflow_store(self._workspace)
        self._last = now = max(time.time_ns() // 1000, self._last + 1000)
        self._seq += 1
        metric, tags = to_mlflow(record(kind, name, value, now, self._name, self._seq, step=step))
        metrics = [] if metric is None else [Metric(metric[0], metric[1], metric[3], metric[2])]
        with mlflow_errors(self._run_id, f"log {name!r}"):
            self._store_obj.log_batch(self._run_id, metrics=metrics, params=[],
                                      tags=[RunTag(k, v) for k, v in tags.items()])


def delete_tags(workspace, run_id: str, keys) -> None:
    store = mlflow_store(workspace)
    with mlflow_errors(run_id, "remove tags"):
        for key in keys:
            store.delete_tag(run_id, str(key))


def set_tags(workspace, run_id: str, tags: dict) -> None:
    from mlflow.entities import RunTag

    store = mlflow_store(workspace)
    with mlflow_errors(run_id, "set tags"):
        store.log_batch(run_id, metrics=[], params=[], tags=[RunTag(k, v) for k, v in tags.items()])
