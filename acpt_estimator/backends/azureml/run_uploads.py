"""Files the driver uploads to a cloud run (``run.upload_file``), as azureml-mlflow's run artifact client does.

Run history creates the empty artifacts and answers a SAS URI per path (``POST history/v1.0/.../experiments/<exp>/
runs/<run>/artifacts/batch/metadata``, azureml-mlflow's ``RunArtifactsOperations.batch_create_empty_artifacts``);
the bytes then go to that URI with azure-storage-blob (``BlobClient.from_blob_url(uri).upload_blob``).
"""

from __future__ import annotations

import os

from ...exceptions import UserErrorException
from .client import azure_errors, services


def upload(workspace, experiment_name: str, run_id: str, name: str, path_or_stream) -> None:
    from azure.storage.blob import BlobClient

    data = _read(path_or_stream)
    svc = services(workspace)
    url = svc.history(f"/experiments/{experiment_name}/runs/{run_id}/artifacts/batch/metadata")
    with azure_errors(workspace, f"upload {name!r} to run {run_id!r}"):
        answer = svc.send("POST", url, json={"paths": [{"path": name}]}).json()
    if name in (answer.get("errors") or {}):
        uri = _existing_artifact_uri(workspace, run_id, name, data, answer["errors"][name].get("error") or {})
        if uri is None:
            return  # the run already holds these very bytes (a retried upload whose first answer was lost)
    else:
        uri = answer["artifactContentInformation"][name]["contentUri"]
    with azure_errors(workspace, f"upload {name!r} to run {run_id!r}"):
        BlobClient.from_blob_url(uri).upload_blob(data, overwrite=True)


def _read(path_or_stream) -> bytes:
    if isinstance(path_or_stream, (str, os.PathLike)):
        with open(path_or_stream, "rb") as handle:
            return handle.read()
    return path_or_stream.read()


def _existing_artifact_uri(workspace, run_id: str, name: str, data: bytes, error: dict):
    """The run already has artifact ``name`` (run history answered a Conflict). The same bytes: nothing to do (None).
    No bytes yet (our own earlier request created it and its answer was lost): the artifact's writable URI (the
    Artifact API's ``artifacts/write/{origin}/{container}/{path}``, as azureml-core's get_writeable_artifact_sas_uri
    asks for it). Other bytes: refused, as v1 never replaced a run's file."""
    from . import run_files

    existing = run_files.content(workspace, run_id, name)
    if existing == data:
        return None
    if not existing:
        return run_files.writable_uri(workspace, run_id, name)
    raise UserErrorException(f"Could not upload {name!r} to run {run_id}: {error.get('message') or error}. The run "
                             "already has a different file at that path, and a run's file cannot be replaced (as in "
                             "v1); upload under another name.")


def upload_folder(workspace, experiment_name: str, run_id: str, name: str, path: str) -> None:
    """Every file under ``path``, at ``name/<relative path>`` (v1 ``upload_folder``)."""
    if not os.path.isdir(path):
        raise UserErrorException(f"upload_folder(path={path!r}): not a folder; pass a folder, or use upload_file.")
    for root, _, files in os.walk(path):
        for file_name in sorted(files):
            local = os.path.join(root, file_name)
            relative = os.path.relpath(local, path).replace(os.sep, "/")
            upload(workspace, experiment_name, run_id, f"{name.rstrip('/')}/{relative}", local)
