"""A cloud run's v1 records in the workspace's MLflow REST API (``/mlflow/v2.0``, as azureml-mlflow uses it).

Reading follows every page of a metric's history; writing (the driver's ``run.log`` on a cloud run) uses the
same MLflow form as the in-job Run (``job_runtime/_v1_records.py``), so one reader rebuilds both.
"""

from __future__ import annotations

import contextlib
import os
import time

from ...exceptions import ExperimentExecutionException, UserErrorException
from ...tracking import from_mlflow, metric_history, record, to_mlflow
from .client import first_line, services

PAGE = 1000  # points per history request; the service caps pages and returns next_page_token


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
    """(records, tags) of a run; no records before the first one is logged (the MLflow run appears then)."""
    from mlflow.exceptions import MlflowException

    store = mlflow_store(workspace)
    try:
        run = store.get_run(run_id)
    except MlflowException as err:
        if getattr(err, "error_code", "") == "RESOURCE_DOES_NOT_EXIST":
            return [], {}
        with mlflow_errors(run_id, "read the metrics"):
            raise
    tags = dict(run.data.tags)
    with mlflow_errors(run_id, "read the metric history"):
        histories = {key: metric_history(store, run_id, key, PAGE) for key in run.data.metrics if name is None or key == name}
    return from_mlflow(histories, tags), tags


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
