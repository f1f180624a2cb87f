"""The fake's run-history metric v2 API (``/metric/v2.0/...runs/{runId}/batch|list|full``): one metric store per run.

Shapes: azure-ai-ml 1.35's generated run-history client (_restclient/runhistory: operations/_metric_operations.py
for the routes and verbs; models BatchIMetricV2/IMetricV2, ListMetrics -> PaginatedMetricDefinitionList of
MetricDefinition{metricKey, columns, properties.uxMetricType}, RetrieveFullFidelityMetricRequest -> MetricV2 with
MetricV2Value{metricId, createdUtc, step, data}, PostRunMetricsResult) and what azureml-core 1.61's writer posts
(azureml/core/_metrics.py: uxMetricType ``azureml.v1.scalar|list|table``, ``azureml.v2.image``..., column types
``int|double|string|bool|none|Artifact``). Paging: ``continuationToken`` in the answer, sent back in the request
body. ``full`` answers 404 for a metric the run does not have (azureml-core's reader says so: "v2 GetFullFidelity
returns a 404 when metric does not exist"). No recording of these routes exists (UNVERIFIED.md).

MLflow metrics are the same store (the service keeps one store; MLflow numbers read back as ``double`` scalars).
"""

from __future__ import annotations

import datetime
import uuid

SCALAR_TYPE = "azureml.v1.scalar"
_EPOCH_MS = 1700000000000


def iso(ms: int) -> str:
    return datetime.datetime.fromtimestamp(ms / 1000, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _ms(text) -> int:
    if not text:
        return _EPOCH_MS
    stamp = datetime.datetime.fromisoformat(str(text).replace("Z", "+00:00"))
    if stamp.tzinfo is None:
        stamp = stamp.replace(tzinfo=datetime.timezone.utc)
    return int(stamp.timestamp() * 1000)


def _run_error(status: int, code: str, message: str):
    """Run history's ErrorResponse envelope (runhistory models ErrorResponse/RootError)."""
    return status, {}, {"error": {"code": "UserError", "message": message, "details": [{"code": code,
                                                                                         "message": message}]}}


class MetricsV2Mixin:
    """Handlers over ``self.jobs``/``self.mlflow_runs``; mixed into FakeState."""

    metric_page_size = 1000  # values per ``full`` answer
    metric_list_page_size = 100  # definitions per ``list`` answer

    def metric_store(self, run_id) -> dict | None:
        """{name: MetricV2 dict} of a run (None: no such run); a job's scripted metrics are its first values."""
        stores = self.__dict__.setdefault("_metric_stores", {})
        if run_id not in stores:
            job = self.jobs.get(run_id)
            if job is None and run_id not in self.mlflow_runs:
                return None
            stores[run_id] = {}
            for key, values in (job.script.metrics if job is not None else {}).items():
                for step, value in enumerate(values):
                    self.append_scalar(run_id, key, value, step, _EPOCH_MS + step)
        return stores[run_id]

    def append_scalar(self, run_id, key, value, step, ms) -> None:
        """One MLflow point (or a scripted one): a double scalar value, as the service stores MLflow metrics."""
        column = "int" if isinstance(value, int) and not isinstance(value, bool) else "double"
        self._append(run_id, {"name": key, "columns": {key: column},
                              "properties": {"uxMetricType": SCALAR_TYPE},
                              "value": [{"metricId": str(uuid.uuid4()), "createdUtc": iso(ms), "step": step,
                                         "data": {key: value}}]})

    def _append(self, run_id, metric: dict):
        """Add one posted IMetricV2; an error message when its columns disagree with the stored metric's."""
        store = self.metric_store(run_id)
        name = metric.get("name")
        columns = {k: str(v).lower() for k, v in (metric.get("columns") or {}).items()}
        values = metric.get("value") or []
        if not name or not columns or any(set(v.get("data") or {}) - set(columns) for v in values):
            return f"Metric {name!r}: every value's data must use the metric's columns {sorted(columns)}."
        found = store.get(name)
        if found is None:
            found = store[name] = {"dataContainerId": f"dcid.{run_id}", "name": name, "columns": columns,
                                   "properties": {"uxMetricType": (metric.get("properties") or {}).get(
                                       "uxMetricType") or SCALAR_TYPE},
                                   "namespace": metric.get("namespace") or "", "standardSchemaId": None, "value": []}
        elif _widen(found["columns"], columns) is None:
            return (f"Metric {name!r} was logged with columns {found['columns']}; the service refuses "
                    f"{columns}.")
        else:
            found["columns"] = _widen(found["columns"], columns)
        for value in values:
            found["value"].append({"metricId": value.get("metricId") or str(uuid.uuid4()),
                                   "createdUtc": value.get("createdUtc") or iso(_EPOCH_MS),
                                   "step": value.get("step"), "data": dict(value.get("data") or {})})
        return None

    def scalar_points(self, run_id) -> dict | None:
        """MLflow's view of the store: numeric scalar metrics as {key: [(value, step, ms)]}."""
        store = self.metric_store(run_id)
        if store is None:
            return None
        points = {}
        for name, metric in store.items():
            if metric["properties"]["uxMetricType"] != SCALAR_TYPE or metric["columns"].get(name) not in (
                    "int", "double", "float"):
                continue
            points[name] = [(float(v["data"][name]), i if v.get("step") is None else int(v["step"]), _ms(v["createdUtc"]))
                            for i, v in enumerate(metric["value"]) if v["data"].get(name) is not None]
        return points

    # ---- routes ---------------------------------------------------------------------------------------
    def metrics_v2_batch(self, name, body, **_):
        if self.metric_store(name) is None:
            return _run_error(404, "RunNotFound", f"Run {name} was not found.")
        errors = []
        for metric in (body or {}).get("values") or []:
            problem = self._append(name, metric)
            if problem:
                errors.append({"metric": metric, "errorResponse": {"error": {"code": "UserError",
                                                                             "message": problem}}})
        return (207 if errors else 200), {}, {"errors": errors}

    def metrics_v2_list(self, name, body, **_):
        store = self.metric_store(name)
        if store is None:
            return _run_error(404, "RunNotFound", f"Run {name} was not found.")
        start = int((body or {}).get("continuationToken") or 0)
        names = list(store)[start:start + self.metric_list_page_size]
        end = start + len(names)
        definitions = [{"metricKey": {"namespace": store[n]["namespace"], "name": n, "labels": [],
                                      "columnNames": list(store[n]["columns"])},
                        "columns": store[n]["columns"], "properties": store[n]["properties"]} for n in names]
        return 200, {}, {"value": definitions, "continuationToken": str(end) if end < len(store) else None,
                         "nextLink": None}

    def metrics_v2_full(self, name, body, **_):
        store = self.metric_store(name)
        if store is None:
            return _run_error(404, "RunNotFound", f"Run {name} was not found.")
        metric = store.get((body or {}).get("metricName"))
        if metric is None:
            return _run_error(404, "MetricNotFound", f"Metric {(body or {}).get('metricName')} was not found "
                                                     f"in run {name}.")
        start = int(body.get("continuationToken") or 0)
        end = start + self.metric_page_size
        return 200, {}, {**metric, "value": metric["value"][start:end],
                         "continuationToken": str(end) if end < len(metric["value"]) else None, "nextLink": None}


def _widen(old: dict, new: dict):
    """The stored columns after a new post: ints widen to doubles (v1 does the same for lists); other changes
    of type are refused."""
    if set(old) != set(new):
        return None
    merged = {}
    for key, kind in old.items():
        other = new[key]
        if kind == other:
            merged[key] = kind
        elif {kind, other} <= {"int", "double", "float"}:
            merged[key] = "double"
        else:
            return None
    return merged
