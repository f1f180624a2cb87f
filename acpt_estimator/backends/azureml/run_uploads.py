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

    svc = services(workspace)
    url = svc.history(f"/experiments/{experiment_name}/runs/{run_id}/artifacts/batch/metadata")
    with azure_errors(workspace, f"upload {name!r} to run {run_id!r}"):
        answer = svc.send("POST", url, json={"paths": [{"path": name}]}).json()
    if (answer.get("errors") or {}).get(name):
        error = answer["errors"][name].get("error") or {}
        raise UserErrorException(f"Could not upload {name!r} to run {run_id}: {error.get('message') or error}. "
                                 "A run's file cannot be replaced (as in v1); upload under another name.")
    uri = answer["artifactContentInformation"][name]["contentUri"]
    with azure_errors(workspace, f"upload {name!r} to run {run_id!r}"):
        if isinstance(path_or_stream, (str, os.PathLike)):
            with open(path_or_stream, "rb") as handle:
                BlobClient.from_blob_url(uri).upload_blob(handle, overwrite=True)
        else:
            BlobClient.from_blob_url(uri).upload_blob(path_or_stream, overwrite=True)


def upload_folder(workspace, experiment_name: str, run_id: str, name: str, path: str) -> None:
    """Every file under ``path``, at ``name/<relative path>`` (v1 ``upload_folder``)."""
    if not os.path.isdir(path):
        raise UserErrorException(f"upload_folder(path={path!r}): not a folder; pass a folder, or use upload_file.")
    for root, _, files in os.walk(path):
        for file_name in sorted(files):
            local = os.path.join(root, file_name)
            relative = os.path.relpath(local, path).replace(os.sep, "/")
            upload(workspace, experiment_name, run_id, f"{name.rstrip('/')}/{relative}", local)
