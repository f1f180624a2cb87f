"""Datastore URIs, input-name rules and glob handling shared by the v1 data objects and the backends."""

from __future__ import annotations

import re

from acpt_estimator.exceptions import UserErrorException
from acpt_estimator.job_checks import check_no_template
from acpt_estimator.names import is_valid
from acpt_estimator.paths import relative_parts


def is_url(path) -> bool:
    """A public web file (v1 datasets accept http(s) URLs besides datastore paths)."""
    return isinstance(path, str) and path.lower().startswith(("http://", "https://"))


def datastore_path_parts(path, parameter: str = "path_on_datastore", fix: str = "") -> list[str]:
    """A datastore path's parts: inside the datastore, and with no v2 template in it."""
    fix = fix or "Pass a path inside the datastore, e.g. ds.path('mnist/train')."
    parts = relative_parts(path, parameter=parameter, fix=fix)
    check_no_template(path, parameter, f"Rename the folder on the datastore. {fix}")
    return parts


def datastore_uri(datastore_name: str, path: str | None) -> str:
    """The v2 URI of a datastore path; a folder path ends with '/'."""
    check_no_template(path, "datastore path", "Rename the folder on the datastore, or pass the value as an argument.")
    path = (path or "").lstrip("/")
    return f"azureml://datastores/{datastore_name}/paths/{path}"


def parse_datastore_uri(uri: str):
    """(datastore, path) of ``azureml://datastores/<ds>/paths/<p>``, else None."""
    match = re.match(r"^azureml://datastores/([^/]+)/paths/(.*)$", uri or "")
    return (match[1], match[2]) if match else None


# azure-ai-ml's LONG_URI_FORMAT (constants/_common.py): how the service may answer a data asset's path.
_LONG_URI = re.compile(r"^azureml://subscriptions/([^/]+)/resource[gG]roups/([^/]+)/workspaces/([^/]+)/"
                       r"(datastores/[^/]+/paths/.*)$")


def short_datastore_uri(uri: str, subscription_id: str, resource_group: str, workspace_name: str) -> str:
    """``azureml://subscriptions/<s>/resourcegroups/<rg>/workspaces/<ws>/datastores/...`` of this workspace ->
    ``azureml://datastores/...``; any other URI (another workspace's included) is returned unchanged."""
    match = _LONG_URI.match(uri or "")
    if not match:
        return uri
    ours = (subscription_id.lower(), resource_group.lower(), workspace_name.lower())
    return f"azureml://{match[4]}" if tuple(g.lower() for g in match.groups()[:3]) == ours else uri


def check_input_name(name: str) -> str:
    if not is_valid("identifier", name):
        raise UserErrorException(
            f'Invalid input name "{name}". The name can only be alphanumeric characters and underscore, '
            "and must not begin with a number. Rename the input, e.g. as_named_input('train')."
        )
    return name


def strip_glob(path: str) -> str:
    """'mnist/**' -> 'mnist/': v2 folders are mounted whole."""
    parts = [p for p in path.split("/") if p]
    while parts and any(ch in parts[-1] for ch in "*?["):
        parts.pop()
    return "/".join(parts) + "/" if parts else ""


def download_each(names, target_path: str, overwrite: bool, show_progress: bool, fetch) -> int:
    """v1 ``datastore.download``'s loop: ``fetch(name, dest)`` for each name not already at ``target_path/name``
    (unless ``overwrite``); returns how many were fetched."""
    import os

    from .paths import contained

    copied = 0
    for name in names:
        dest = contained(target_path, name, parameter="datastore file", what="the download folder",
                         fix="Download into a folder of its own, or rename the file in the datastore.")
        if os.path.exists(dest) and not overwrite:
            continue  # v1 skips files already downloaded
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        fetch(name, dest)
        copied += 1
        if show_progress:
            print(f"Downloaded {name}, {copied} files out of an estimated total of {len(names)}")
    return copied


def fill_output_path(path: str, run_id: str, output_name: str) -> str:
    """v1's placeholders in an output destination: {run-id} and {output-name}."""
    return path.replace("{run-id}", run_id).replace("{output-name}", output_name)


def v2_output_path(path: str) -> str:
    """The same placeholders as v2 path expressions, which the service fills in for each job."""
    return path.replace("{run-id}", "${{name}}").replace("{output-name}", "${{output_name}}")


def download_url(url: str, dest: str) -> None:
    """A web file of a dataset, saved to ``dest``; failures name the URL."""
    import os
    import shutil
    import urllib.error
    import urllib.request

    os.makedirs(os.path.dirname(dest), exist_ok=True)
    try:
        with urllib.request.urlopen(url, timeout=60) as response, open(dest, "wb") as handle:  # noqa: S310
            shutil.copyfileobj(response, handle)
    except (urllib.error.URLError, OSError) as err:
        raise UserErrorException(
            f"Could not download dataset file {url} ({getattr(err, 'reason', err)}). Check the URL and this "
            "machine's network access, or upload the file to a datastore.") from None


# The workspace's own datastores, always there (v1 names and types).
BUILTIN_DATASTORES = {"workspaceblobstore": "AzureBlob", "workspacefilestore": "AzureFile"}


def datastore_fields(datastore_type, container_name, account_name, protocol=None, endpoint=None) -> dict:
    """What a registration records of a datastore (v1's attributes; never a key or SAS token)."""
    return {"datastore_type": datastore_type, "container_name": container_name, "account_name": account_name,
            "protocol": protocol or "https", "endpoint": endpoint or "core.windows.net"}


def missing_datastore(workspace, name, known) -> UserErrorException:
    return UserErrorException(
        f"Datastore.get(ws, {name!r}): no datastore named {name!r} in workspace {workspace.name!r} (it has "
        f"{sorted(known)}). Use ws.get_default_datastore(), or register it with "
        "Datastore.register_azure_blob_container(ws, datastore_name, container_name, account_name, ...).")
