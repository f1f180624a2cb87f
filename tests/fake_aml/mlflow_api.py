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

_EPOCH_MS = 1700000000000


class MlflowMixin:
    """Handlers over ``self.jobs``; mixed into FakeState. A job's metrics live in ``job.mlflow``, its tags in the
    job's own tags."""

    history_page_size = 1000

    def _mlflow_of(self, run_id):
        job = self.jobs.get(run_id)
        if job is None:
            return None
        if job.mlflow is None:  # what the job script "logged" (one point per value), seen as MLflow points
            job.mlflow = {"metrics": {k: [(float(v), i, _EPOCH_MS + i) for i, v in enumerate(values)]
                                      for k, values in job.script.metrics.items()}}
        # One run, two APIs: MLflow tags are the run's tags in run history (and on the v2 job).
        job.mlflow["tags"] = job.body.setdefault("properties", {}).setdefault("tags", {})
        return job.mlflow

    def mlflow_run(self, query, **_):
        run_id = query.get("run_id") or query.get("run_uuid")
        data = self._mlflow_of(run_id)
        if data is None:
            return _no_run()
        latest = [{"key": k, "value": p[-1][0], "timestamp": p[-1][2], "step": p[-1][1]}
                  for k, p in data["metrics"].items() if p]
        tags = [{"key": k, "value": v} for k, v in data["tags"].items()]
        return 200, {}, {"run": {"info": {"run_id": run_id, "run_uuid": run_id, "experiment_id": "1",
                                          "status": "RUNNING", "start_time": _EPOCH_MS, "lifecycle_stage": "active",
                                          "user_id": "fake", "artifact_uri": f"{self.base_url}/mlflow-artifacts/{run_id}"},
                                 "data": {"metrics": latest, "params": [], "tags": tags}}}

    def mlflow_history(self, query, **_):
        data = self._mlflow_of(query.get("run_id") or query.get("run_uuid"))
        if data is None:
            return _no_run()
        points = data["metrics"].get(query.get("metric_key"), [])
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
        for metric in body.get("metrics") or []:
            data["metrics"].setdefault(metric["key"], []).append(
                (float(metric["value"]), int(metric.get("step") or 0), int(metric.get("timestamp") or time.time() * 1000)))
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
