"""The fake's run-history side of driver uploads: empty artifacts with a SAS URI each, filled through Blob storage.

Shapes: azureml-mlflow's generated run-history client (``RunArtifactsOperations.batch_create_empty_artifacts``:
``POST .../experiments/{experimentName}/runs/{runId}/artifacts/batch/metadata`` with an ``ArtifactPathList``, answering
a ``BatchArtifactContentInformationResult``: ``artifacts``, ``artifactContentInformation`` (``contentUri`` per path)
and ``errors`` for paths that exist). The URI names the workspace's artifact account (``azureml`` container,
``ExperimentRun/dcid.<run>/<path>``), which the fake's proxy serves from its blob store.
"""

from __future__ import annotations

import urllib.parse

ARTIFACT_ACCOUNT = "fakeartifacts"


class RunUploadsMixin:
    """Mixed into FakeState: ``self.uploads`` maps (run id, path) to the blob key holding its bytes."""

    @property
    def uploads(self) -> dict:
        return self.__dict__.setdefault("_uploads", {})

    def uploaded_paths(self, run_id: str) -> list:
        return [path for run, path in self.uploads if run == run_id]

    def uploaded_bytes(self, run_id: str, path: str) -> bytes:
        return self.blobs.blobs.get(self.uploads[(run_id, path)], b"")

    def batch_create_artifacts(self, name, body, **_):
        if name not in self.jobs and name not in getattr(self, "mlflow_runs", {}):
            return 404, {}, {"error": {"code": "ResourceNotFound", "message": f"Run {name} not found (fake)"}}
        artifacts, infos, errors = {}, {}, {}
        existing = set(self.uploaded_paths(name)) | (set(self.jobs[name].script.files) if name in self.jobs else set())
        for item in (body or {}).get("paths") or []:
            path = item["path"]
            if path in existing:
                errors[path] = {"error": {"code": "Conflict", "message": f"Resource Conflict: ArtifactId "
                                                                         f"ExperimentRun/dcid.{name}/{path} already exists."}}
                continue
            blob = f"ExperimentRun/dcid.{name}/{path}"
            self.uploads[(name, path)] = f"{ARTIFACT_ACCOUNT}/azureml/{blob}"
            artifacts[path] = {"artifactId": f"ExperimentRun/dcid.{name}/{path}", "origin": "ExperimentRun",
                               "container": f"dcid.{name}", "path": path}
            infos[path] = {"contentUri": f"https://{ARTIFACT_ACCOUNT}.blob.core.windows.net/azureml/"
                                         f"{urllib.parse.quote(blob)}?sv=fake&sig=fake",
                           "origin": "ExperimentRun", "container": f"dcid.{name}", "path": path}
        return 200, {}, {"artifacts": artifacts, "artifactContentInformation": infos, "errors": errors}

    def artifact_write_uri(self, name, file, **_):
        """The Artifact API's writable SAS of an existing artifact (``GET .../artifacts/write/{origin}/{container}/
        {path}``, azureml-core's ArtifactOperations.get_write_sas)."""
        if (name, file) not in self.uploads:
            return 404, {}, {"error": {"code": "UserError", "message": f"Artifact {file} not found (fake)"}}
        blob = f"ExperimentRun/dcid.{name}/{file}"
        return 200, {}, {"contentUri": f"https://{ARTIFACT_ACCOUNT}.blob.core.windows.net/azureml/"
                                       f"{urllib.parse.quote(blob)}?sv=fake&sp=w&sig=fake",
                         "origin": "ExperimentRun", "container": f"dcid.{name}", "path": file}
