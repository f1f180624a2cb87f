"""The fake's MLflow tracking API, at ``/mlflow/v2.0<workspace>/api/2.0/mlflow/...`` as Azure ML serves it.

Shapes: MLflow's REST API (mlflow/protos/service.proto: GetRun, GetMetricHistory with max_results and
next_page_token, LogMetric, SetTag, DeleteTag, LogBatch); run history's details carry runNumber and parentRunId
(the RunDetails model of azure-ai-ml's generated run-history client); the ``/mlflow/v2.0`` prefix is what azureml-mlflow uses for
MLflow >= 2 (azureml/mlflow/_store/azureml_reststore.py, get_host_credentials). A metric history comes back in
pages of at most ``history_page_size`` points, also when the client asks for more or for no limit, as the
service caps pages. Artifacts: the real run's ``azureml://`` artifact URI needs the azureml-mlflow plugin, so
the fake hands out an ``https://`` URI served by MLflow's HTTP artifact repository and keeps the files with the
run's other artifacts.
"""

from __future__ import annotations

import time
import uuid

from .metrics_v2 import _EPOCH_MS


class MlflowMixin:
    """Handlers over ``self.jobs``; mixed into FakeState. Metrics live in the run's metric v2 store (metrics_v2.py),
    tags in the job's own tags."""

    history_page_size = 1000

    def _mlflow_of(self, run_id):
        if run_id in self.mlflow_runs:  # a run made through MLflow itself (no job behind it)
            return self.mlflow_runs[run_id]
        job = self.jobs.get(run_id)
        if job is None:
            return None
        if job.mlflow is None:
            job.mlflow = {}
        # One run, two APIs: MLflow tags are the run's tags in run history (and on the v2 job).
        job.mlflow["tags"] = job.body.setdefault("properties", {}).setdefault("tags", {})
        return job.mlflow

    @property
    def mlflow_runs(self) -> dict:
        return self.__dict__.setdefault("_mlflow_runs", {})

    def _experiments(self) -> dict:
        return self.__dict__.setdefault("_mlflow_experiments", {})

    def mlflow_experiment_by_name(self, query, **_):
        name = query.get("experiment_name")
        if name not in self._experiments():
            return 404, {}, {"error_code": "RESOURCE_DOES_NOT_EXIST", "message": f"Experiment '{name}' not found"}
        return 200, {}, {"experiment": {"experiment_id": self._experiments()[name], "name": name,
                                        "lifecycle_stage": "active"}}

    def mlflow_get_experiment(self, query, **_):
        found = [n for n, i in self._experiments().items() if i == query.get("experiment_id")]
        if not found:
            return 404, {}, {"error_code": "RESOURCE_DOES_NOT_EXIST", "message": "Experiment not found"}
        return 200, {}, {"experiment": {"experiment_id": query["experiment_id"], "name": found[0],
                                        "lifecycle_stage": "active"}}

    def mlflow_create_experiment(self, body, **_):
        experiment_id = self._experiments().setdefault(body["name"], str(len(self._experiments()) + 1))
        return 200, {}, {"experiment_id": experiment_id}

    def mlflow_create_run(self, body, **_):
        run_id = str(uuid.uuid4())  # the service names MLflow-made runs itself
        self.mlflow_runs[run_id] = {"tags": {t["key"]: t["value"] for t in body.get("tags") or []},
                                    "info": {"experiment_id": body.get("experiment_id"), "status": "RUNNING",
                                             "start_time": int(body.get("start_time") or _EPOCH_MS)}}
        return self.mlflow_run({"run_id": run_id})

    def mlflow_update_run(self, body, **_):
        data = self._mlflow_of(body.get("run_id") or body.get("run_uuid"))
        if data is None or "info" not in data:
            return _no_run()
        data["info"].update({k: body[k] for k in ("status", "end_time") if body.get(k) is not None})
        return 200, {}, {"run_info": data["info"]}

    def mlflow_search_runs(self, body, **_):
        """Only the filter acpt-estimator sends: ``tags.mlflow.parentRunId = '<id>'``."""
        wanted = (body.get("filter") or "").partition("=")[2].strip().strip("'\"")
        found = [self.mlflow_run({"run_id": rid})[2]["run"] for rid, data in self.mlflow_runs.items()
                 if data["tags"].get("mlflow.parentRunId") == wanted]
        return 200, {}, {"runs": found}

    def mlflow_run(self, query, **_):
        run_id = query.get("run_id") or query.get("run_uuid")
        data = self._mlflow_of(run_id)
        if data is None:
            return _no_run()
        info = {"status": "RUNNING", "start_time": _EPOCH_MS, "experiment_id": "1", **data.get("info", {})}
        latest = [{"key": k, "value": p[-1][0], "timestamp": p[-1][2], "step": p[-1][1]}
                  for k, p in self.scalar_points(run_id).items() if p]
        tags = [{"key": k, "value": v} for k, v in data["tags"].items()]
        return 200, {}, {"run": {"info": {"run_id": run_id, "run_uuid": run_id, "lifecycle_stage": "active",
                                          "user_id": "fake", "artifact_uri": f"{self.base_url}/mlflow-artifacts/{run_id}",
                                          **info},
                                 "data": {"metrics": latest, "params": [], "tags": tags}}}

    def mlflow_history(self, query, **_):
        data = self._mlflow_of(query.get("run_id") or query.get("run_uuid"))
        if data is None:
            return _no_run()
        points = self.scalar_points(query.get("run_id") or query.get("run_uuid")).get(query.get("metric_key"), [])
        start = int(query.get("page_token") or 0)
        size = min(int(query.get("max_results") or self.history_page_size), self.history_page_size)
        page = points[start:start + size]
        body = {"metrics": [{"key": query["metric_key"], "value": v, "step": s, "timestamp": t} for v, s, t in page]}
        if start + size < len(points):
            body["next_page_token"] = str(start + size)
        return 200, {}, body

    def mlflow_log_metric(self, body, **_):
        return self.mlflow_log_batch({"run_id": body.get("run_id") or body.get("run_uuid"), "metrics": [body]})

    def mlflow_set_tag(self, body, **_):
        return self.mlflow_log_batch({"run_id": body.get("run_id") or body.get("run_uuid"), "tags": [body]})

    def mlflow_log_batch(self, body, **_):
        data = self._mlflow_of(body.get("run_id"))
        if data is None:
            return _no_run()
        for metric in body.get("metrics") or []:  # the run's one metric store (metrics_v2.py)
            self.append_scalar(body.get("run_id"), metric["key"], float(metric["value"]), int(metric.get("step") or 0),
                               int(metric.get("timestamp") or time.time() * 1000))
        for tag in body.get("tags") or []:
            data["tags"][tag["key"]] = tag["value"]
        return 200, {}, {}

    def mlflow_delete_tag(self, body, **_):
        data = self._mlflow_of(body.get("run_id"))
        if data is None:
            return _no_run()
        data["tags"].pop(body.get("key"), None)
        return 200, {}, {}

    def mlflow_put_artifact(self, name, file, raw, **_):
        job = self.jobs.get(name)
        if job is None:
            return _no_run()
        job.script.files[file] = raw
        return 200, {}, {}


def _no_run():
    return 404, {}, {"error_code": "RESOURCE_DOES_NOT_EXIST", "message": "Run not found"}
