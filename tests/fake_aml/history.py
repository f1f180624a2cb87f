"""The fake's run-history side: run details, children, metadata PATCH, log files and artifacts."""

from __future__ import annotations

import urllib.parse
import uuid

TERMINAL = ("Completed", "Failed", "Canceled")


class RunHistoryMixin:
    """Handlers over ``self.jobs`` (FakeJob by name); mixed into FakeState."""

    # ---- run history: details, logs, artifacts ------------------------------------------------------
    def run_details(self, name, **_):
        job = self.jobs.get(name)
        if job is None:
            return _not_found("Run", name)
        status = job.status()
        logs = {f: f"{self.base_url}/logs/{name}/{f}?sig=fake" for f in job.logs}
        # RunDetails (runhistory models): the creator is createdBy (a User), there is no submittedBy; for a v2
        # command job the service's runDefinition has no script and empty arguments (the command says it all).
        details = {"runId": name, "runUuid": str(uuid.uuid5(uuid.NAMESPACE_URL, name)), "status": status,
                   "target": _compute_name(job.body), "startTimeUtc": "2026-01-01T00:00:00Z",
                   "properties": {"azureml.runsource": "azureml.scriptrun"},
                   "inputDatasets": [], "outputDatasets": [], "createdBy": CREATED_BY,
                   "logFiles": logs if status not in ("Queued", "NotStarted", "Starting") else {},
                   "parentRunId": job.parent,
                   "runDefinition": {"script": None, "arguments": [], "command": _command(job.body),
                                     "target": _compute_name(job.body), "nodeCount": 1, "framework": "Python",
                                     "communicator": "None", "environmentVariables": {}}}
        if status in TERMINAL:
            details["endTimeUtc"] = "2026-01-01T00:05:00Z"
        if status == "Failed":
            details["error"] = job.script.error or {"error": {"code": "UserError", "message": "script failed"}}
        return 200, {}, details

    def run_get(self, name, **_):
        """Run history's Run model (runhistory/models: Run has runNumber; RunDetails does not)."""
        job = self.jobs.get(name)
        if job is None and name in getattr(self, "mlflow_runs", {}):  # MLflow-made runs are run-history runs too
            made = self.mlflow_runs[name]
            return 200, {}, {"runId": name, "runNumber": len(self.jobs) + list(self.mlflow_runs).index(name) + 1,
                             "parentRunId": made["tags"].get("mlflow.parentRunId"),
                             "status": made["info"]["status"].title(), "tags": made["tags"]}
        if job is None:
            return _not_found("Run", name)
        run = {"runId": name, "runNumber": list(self.jobs).index(name) + 1, "parentRunId": job.parent,
               "status": job.current_status(), "tags": job.body["properties"].get("tags") or {},
               "createdBy": CREATED_BY, "displayName": job.body["properties"].get("displayName") or name,
               "experimentId": _experiment_id(job.body)}
        if job.node is not None:  # a pipeline step's run: its node, display name and experiment
            run.update(displayName=job.body["properties"]["displayName"], runType="azureml.StepRun",
                       properties=job.body["properties"]["properties"], createdUtc="2026-01-01T00:00:00Z")
        return 200, {}, run

    def run_children(self, name, **_):
        # Run (runhistory models): experimentId is the experiment's GUID, an error is wrapped ({"error": {...}}).
        runs = [{"runId": j.name, "parentRunId": name, "status": j.current_status(),
                 "experimentId": _experiment_id(j.body), "displayName": j.body["properties"].get("displayName") or j.name,
                 "tags": j.body["properties"].get("tags") or {}, "properties": j.body["properties"]["properties"],
                 "createdBy": CREATED_BY, "createdUtc": "2026-01-01T00:00:00Z",
                 **({"runType": "azureml.StepRun"} if j.node is not None else {}),
                 **({"error": j.script.error or {"error": {"code": "UserError", "message": "script failed"}}}
                    if j.current_status() == "Failed" else {})}
                for j in self.jobs.values() if j.parent == name]
        return 200, {}, {"value": runs, "continuationToken": None}

    def delete_run_tags(self, name, body, **_):
        """Run history's tag deletion (runhistory delete_tags: DELETE .../runs/{runId}/tags, a list of names)."""
        job = self.jobs.get(name)
        if job is None:
            return _not_found("Run", name)
        tags = job.body.setdefault("properties", {}).setdefault("tags", {})
        for key in body or []:
            tags.pop(key, None)
        return 200, {}, {"runId": name, "status": job.current_status(), "tags": tags}

    def patch_run(self, name, body, **_):
        """Run history's metadata PATCH (jobs.update): tags and properties are merged, not replaced."""
        job = self.jobs.get(name)
        if job is None:
            return _not_found("Run", name)
        props = job.body.setdefault("properties", {})
        for key in ("tags", "properties"):
            if body.get(key):
                props[key] = {**(props.get(key) or {}), **body[key]}
        for key in ("displayName", "description"):
            if body.get(key) is not None:
                props[key] = body[key]
        return 200, {}, {"runId": name, "status": job.current_status(), "tags": props.get("tags") or {},
                         "properties": props.get("properties") or {}}

    def log_content(self, name, file, **_):
        job = self.jobs.get(name)
        if job is None or file not in job.logs:
            return _not_found("Log", file)
        lines = job.visible_log_lines(file)
        return 200, {"Content-Type": "text/plain"}, "".join(line + "\n" for line in lines)

    def _artifact_paths(self, job) -> list:
        return sorted(list(job.script.files) + list(job.logs) + self.uploaded_paths(job.name))

    # Artifact API (the published ArtifactAPI swagger, quoted in issue 14; azureml-core's v1 artifacts client used
    # it): GET .../artifacts/{origin}/{container} lists one page and a continuationToken;
    # GET .../artifacts/{origin}/{container}/contentinfo?path=<path> answers the path's SAS contentUri.
    ARTIFACT_PAGE = 3  # small, so that tests cross pages as long listings do on the service

    def list_artifacts(self, name, query, **_):
        job = self.jobs.get(name)
        if job is None and name not in getattr(self, "mlflow_runs", {}):
            return _not_found("Run", name)
        paths = self._artifact_paths(job) if job is not None else sorted(self.uploaded_paths(name))
        start = int(query.get("continuationToken") or 0)
        end = start + self.ARTIFACT_PAGE
        return 200, {}, {"value": [{"origin": "ExperimentRun", "container": f"dcid.{name}", "path": p}
                                   for p in paths[start:end]],
                         "continuationToken": str(end) if end < len(paths) else None}

    def artifact_info(self, name, query, **_):
        job = self.jobs.get(name)
        file = query.get("path")
        if (name, file) not in self.uploads and (job is None or file not in self._artifact_paths(job)):
            return _not_found("Artifact", file)
        return 200, {}, {"origin": "ExperimentRun", "container": f"dcid.{name}", "path": file,
                         "contentUri": f"{self.base_url}/artifactcontent/{name}/{urllib.parse.quote(file)}?sig=fake"}

    def artifact_content(self, name, file, **_):
        if (name, file) in self.uploads:
            if self.uploads[(name, file)] not in self.blobs.blobs:  # created, never written: no blob yet
                return 404, {"x-ms-error-code": "BlobNotFound"}, None
            return 200, {}, self.uploaded_bytes(name, file)
        job = self.jobs[name]
        if file in job.logs:
            return 200, {}, "".join(line + "\n" for line in job.logs[file]).encode()
        return 200, {}, job.script.files[file]


CREATED_BY = {"userObjectId": "00000000-0000-0000-0000-0000000000aa", "userTenantId": "fake-tenant",
              "userName": "Fake User", "userIdp": None, "userPuId": None, "userIss": None, "userAltSecId": None,
              "upn": None}


def _experiment_id(body: dict) -> str:
    return str(uuid.uuid5(uuid.NAMESPACE_URL, (body.get("properties") or {}).get("experimentName") or "Default"))


def _command(body: dict):
    props = body.get("properties") or {}
    return props.get("command") or (props.get("trial") or {}).get("command")


def _compute_name(body: dict) -> str:
    compute_id = (body.get("properties") or {}).get("computeId") or "serverless"
    return compute_id.rstrip("/").rsplit("/", 1)[-1]


def _arm_error(code: str, message: str, status: int = 404):
    """ARM's error envelope (``{"error": {"code", "message"}}``, code echoed in x-ms-error-code)."""
    return status, {"x-ms-error-code": code}, {"error": {"code": code, "message": message}}


def _not_found(kind: str, name: str):
    return _arm_error("ResourceNotFound", f"{kind} {name} not found (fake)")


def _user_error(code: str, message: str, status: int = 404):
    """Azure ML's own error envelope, as recorded (tests/recordings: model-versions-404): ``UserError`` on top with
    a generic message, the specific code and message in ``details[]``, ``additionalInfo`` entries, and no
    ``x-ms-error-code`` header."""
    info = [{"type": "ComponentName", "info": {"value": "managementfrontend"}},
            {"type": "Correlation", "info": {"value": {"operation": "fake-operation", "request": "fake-request"}}},
            {"type": "Environment", "info": {"value": "eastus"}}, {"type": "Location", "info": {"value": "eastus"}},
            {"type": "Time", "info": {"value": "2026-01-01T00:00:00.0000000+00:00"}}]
    return status, {}, {"error": {"code": "UserError", "message": "The specified resource was not found.",
                                  "details": [{"code": code, "message": message, "details": [], "additionalInfo": []}],
                                  "additionalInfo": info}}
