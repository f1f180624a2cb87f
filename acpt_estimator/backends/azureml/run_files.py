"""A cloud run's files, through the run-history artifact service."""

from __future__ import annotations

import os

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
    with azure_errors(workspace, f"download {name!r} from run {run_id!r}"):
        # The Artifact API's published form; jobs.download would fetch every artifact of the job to get one.
        info = svc.get_json(svc.artifacts(f"/{_ORIGIN}/dcid.{run_id}/contentinfo"), params={"path": name})
        response = svc.send("GET", info["contentUri"], authed=False, stream=True)
        folder = os.path.dirname(os.path.abspath(destination))
        os.makedirs(folder, exist_ok=True)
        partial = destination + ".partial"
        with open(partial, "wb") as handle:
            for chunk in response.iter_bytes():
                handle.write(chunk)
        os.replace(partial, destination)
    return destination


def content(workspace, run_id: str, name: str) -> bytes:
    """The bytes of artifact ``name`` (empty when the artifact exists but nothing was written to it yet)."""
    from azure.core.exceptions import HttpResponseError

    svc = services(workspace)
    with azure_errors(workspace, f"read {name!r} of run {run_id!r}"):
        info = svc.get_json(svc.artifacts(f"/{_ORIGIN}/dcid.{run_id}/contentinfo"), params={"path": name})
        try:
            return svc.get_bytes(info["contentUri"])
        except HttpResponseError as err:
            if getattr(err, "status_code", None) == 404:  # BlobNotFound: the artifact has no bytes yet
                return b""
            raise


def writable_uri(workspace, run_id: str, name: str) -> str:
    """A SAS URI that may write artifact ``name`` (the Artifact API's write endpoint)."""
    import urllib.parse

    svc = services(workspace)
    with azure_errors(workspace, f"write {name!r} of run {run_id!r}"):
        path = urllib.parse.quote(name)
        return svc.get_json(svc.artifacts(f"/write/{_ORIGIN}/dcid.{run_id}/{path}"))["contentUri"]
