"""v1 datastore uploads and datasets on Azure ML v2: blob uploads to datastore paths, data assets."""

from __future__ import annotations

import contextlib
import hashlib
import os
import re

from ...datastore_paths import short_datastore_uri
from ...exceptions import UserErrorException
from ...names import V1_NAME_TAG, announce_v2_name, v2_name
from .client import first_line, azure_errors, ml_client


def _container(workspace, datastore_name: str):
    """A ContainerClient for the datastore (its SAS renewed as it nears expiry) and the account's URL."""
    from .datastore_sas import RenewingContainer

    made = []

    def make():
        client, account_url = _new_container(workspace, datastore_name)
        made.append(account_url)
        return client

    return RenewingContainer(make), made[0]


def _new_container(workspace, datastore_name: str):
    """A ContainerClient using the datastore's secret (the service answers a SAS) or the workspace's credential."""
    from azure.ai.ml.entities import AzureBlobDatastore
    from azure.storage.blob import ContainerClient

    with azure_errors(workspace, f"read datastore {datastore_name!r}"):
        store = ml_client(workspace).datastores.get(datastore_name, include_secrets=True)
    if not isinstance(store, AzureBlobDatastore):
        raise UserErrorException(f"Datastore {datastore_name!r} is not an Azure Blob datastore; v1 upload() works "
                                 "with blob datastores (e.g. workspaceblobstore).")
    account_url = f"{store.protocol or 'https'}://{store.account_name}.blob.{store.endpoint or 'core.windows.net'}"
    secret = getattr(store.credentials, "account_key", None) or getattr(store.credentials, "sas_token", None)
    credential = secret or workspace._credential
    # No connect retries: an unreachable account fails at once (a rerun skips what already arrived).
    return ContainerClient(account_url, store.container_name, credential=credential, retry_connect=0), account_url


def _md5(path: str) -> bytes:
    digest = hashlib.md5()
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.digest()


def _decide(remote, local_size: int, local_md5, overwrite: bool) -> str:
    """'upload', 'skip' or 'conflict' for one file, given the listed blob (or None) and the local file.

    The blob's Content-MD5 decides when it has one. Blobs uploaded in blocks by other tools have none (the service
    only computes it for single-shot uploads); then a different size is a different file, and an equal size is
    treated as v1 did: azureml-core's upload skipped every existing target unless overwrite=True.
    """
    if remote is None:
        return "upload"
    md5 = remote.content_settings.content_md5 if remote.content_settings else None
    if md5:
        same = bytes(md5) == local_md5()
    else:
        same = remote.size == local_size
    if same:
        return "upload" if overwrite and not md5 else "skip"
    return "upload" if overwrite else "conflict"


def upload(workspace, datastore_name: str, src_dir: str, target_path: str | None, overwrite: bool,
           show_progress: bool, files: list[str]) -> list[str]:
    """Upload into ``<target_path>/``; identical blobs are skipped, differing ones need overwrite.

    All conflicts are found (one listing) before the first byte is sent, so a refused upload changes nothing.
    Every blob is stored with its Content-MD5 (block uploads over 64 MiB get none from the service), so a rerun
    recognises it.
    """
    from azure.storage.blob import ContentSettings

    container, account_url = _container(workspace, datastore_name)
    prefix = (target_path or "").strip("/")
    prefix = prefix + "/" if prefix else ""
    with _reachable(datastore_name, account_url, writing=True):
        existing = {b.name: b for b in container.list_blobs(name_starts_with=prefix)}
        todo, conflicts = [], []
        for rel in files:
            local = os.path.join(src_dir, rel)
            decision = _decide(existing.get(prefix + rel), os.path.getsize(local), lambda: _md5(local), overwrite)
            if decision == "upload":
                todo.append(rel)
            elif decision == "conflict":
                conflicts.append(rel)
        if conflicts:
            raise UserErrorException(
                f"Uploading {src_dir!r} to datastore {datastore_name!r} path {target_path or '/'!r} would overwrite "
                f"{len(conflicts)} different file(s), e.g. {conflicts[0]}. Pass overwrite=True to replace them; "
                "nothing was uploaded.")
        for count, rel in enumerate(todo, 1):
            local = os.path.join(src_dir, rel)
            with open(local, "rb") as handle:
                container.upload_blob(prefix + rel, handle, overwrite=overwrite,
                                      content_settings=ContentSettings(content_md5=bytearray(_md5(local))))
            if show_progress:
                print(f"Uploaded {rel}, {count} files out of an estimated total of {len(todo)}")
    return todo


def _versions(client, name: str) -> list:
    """Every registered version of data asset ``name`` (none when the name is unknown)."""
    from azure.core.exceptions import ResourceNotFoundError

    try:
        return list(client.data.list(name=name))
    except ResourceNotFoundError:
        return []


def _latest(versions: list):
    return max(versions, key=lambda d: int(d.version) if str(d.version).isdigit() else 0)


def asset_path(workspace, asset) -> str:
    """The asset's path in the short form we register (the service may answer the long, workspace-scoped one)."""
    return short_datastore_uri(asset.path, workspace.subscription_id, workspace.resource_group, workspace.name)


def register_dataset(workspace, name: str, uri: str, uri_type: str, description=None, tags=None,
                     create_new_version=False, properties=None):
    """A v2 data asset for the dataset (its Data entity). The same path and properties again: the existing one.

    A v1 name that v2 refuses ('my dataset') is registered under ``names.v2_name`` (said once, as a warning),
    with the v1 name in the asset's properties, so lookups by the v1 name find it again."""
    from azure.ai.ml.entities import Data

    client = ml_client(workspace)
    asset_name = announce_v2_name("dataset", name)
    properties = {str(k): str(v) for k, v in (properties or {}).items()}
    if asset_name != name:
        properties[V1_NAME_TAG] = name
    with azure_errors(workspace, f"register dataset {name!r}"):
        versions = _versions(client, asset_name)
        version = "1"
        if versions:
            latest = _latest(versions)
            if asset_path(workspace, latest) == uri and all(
                    (latest.properties or {}).get(k) == v for k, v in properties.items()):
                return latest
            if not create_new_version:
                raise UserErrorException(
                    f"Dataset {name!r} is already registered (version {latest.version}) with another definition "
                    f"({asset_path(workspace, latest)}). Pass create_new_version=True to register a new version.")
            version = str(int(latest.version) + 1 if str(latest.version).isdigit() else len(versions) + 1)
        asset = Data(name=asset_name, version=version, path=uri, type=uri_type, description=description,
                     tags={str(k): str(v) for k, v in (tags or {}).items()} or None, properties=properties or None)
        return client.data.create_or_update(asset)


def get_dataset(workspace, name: str, version=None):
    """The Data entity of a registered data asset; a missing one is a UserErrorException naming it."""
    client = ml_client(workspace)
    with azure_errors(workspace, f"get dataset {name!r}"):
        versions = _versions(client, v2_name(name))
    if version not in (None, "latest"):
        versions = [d for d in versions if str(d.version) == str(version)]
    if not versions:
        raise UserErrorException(
            f"Dataset {name!r} (version {version or 'latest'}) is not registered in workspace {workspace.name!r}. "
            f"Register it with dataset.register(ws, {name!r}) or check the name in the studio's Data page.")
    return _latest(versions)


def download(workspace, datastore_name: str, target_path: str, prefix: str | None, overwrite: bool,
             show_progress: bool) -> int:
    """v1 ``datastore.download``: blobs whose name starts with ``prefix`` written under ``target_path``."""
    from ...datastore_paths import download_each

    container, _ = _container(workspace, datastore_name)

    def fetch(name, dest):
        with open(dest, "wb") as handle:
            container.download_blob(name).readinto(handle)

    with azure_errors(workspace, f"download from datastore {datastore_name!r}"):
        names = [b.name for b in container.list_blobs(name_starts_with=(prefix or "").lstrip("/") or None)]
        return download_each(names, target_path, overwrite, show_progress, fetch)


def dataset_names(workspace) -> list[str]:
    """Names of the workspace's (active) data assets."""
    client = ml_client(workspace)
    with azure_errors(workspace, "list datasets"):
        return sorted({v1_name(client, d.name) for d in client.data.list()})


_MAPPED = re.compile(r"-[0-9a-f]{8}$")  # how names.v2_name ends a mapped name


def v1_name(client, asset_name: str) -> str:
    """The v1 name of a data asset: the one in its properties when it was registered under a mapped name."""
    if not _MAPPED.search(asset_name):
        return asset_name
    versions = _versions(client, asset_name)
    return (_latest(versions).properties or {}).get(V1_NAME_TAG, asset_name) if versions else asset_name


def asset_v1_name(asset) -> str:
    return (asset.properties or {}).get(V1_NAME_TAG) or asset.name


def update_dataset(workspace, asset, description=None, tags=None):
    """Change the description/tags of one data asset version (v2 allows that on a registered version)."""
    if description is not None:
        asset.description = description
    if tags is not None:
        asset.tags = {str(k): str(v) for k, v in tags.items()}
    with azure_errors(workspace, f"update dataset {asset.name!r}"):
        return ml_client(workspace).data.create_or_update(asset)


def archive_dataset(workspace, name: str) -> None:
    """v1's unregister_all_versions: v2 archives the data asset (hidden from lists; restorable)."""
    with azure_errors(workspace, f"archive dataset {name!r}"):
        ml_client(workspace).data.archive(v2_name(name))


def list_blobs(workspace, datastore_name: str, prefix: str) -> list[str]:
    """Names of the blobs under ``prefix`` in a blob datastore (datasets: to_path, download, to_pandas_dataframe)."""
    container, account_url = _container(workspace, datastore_name)
    with _reachable(datastore_name, account_url):
        return sorted(b.name for b in container.list_blobs(name_starts_with=prefix or None))


def download_blobs(workspace, datastore_name: str, items) -> None:
    """Download (blob name, local file) pairs (the caller checked each local path)."""
    container, account_url = _container(workspace, datastore_name)
    with _reachable(datastore_name, account_url):
        for name, dest in items:
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            with open(dest, "wb") as handle:
                container.download_blob(name).readinto(handle)


@contextlib.contextmanager
def _reachable(datastore_name: str, account_url: str, writing: bool = False):
    """Storage errors while reading or uploading to a datastore, as messages naming the account and the fix."""
    from azure.core.exceptions import HttpResponseError, ServiceRequestError

    action, role = ("upload", "Contributor") if writing else ("read", "Reader")
    try:
        yield
    except ServiceRequestError as err:
        raise UserErrorException(
            f"Could not reach the storage account of datastore {datastore_name!r} at {account_url} "
            f"({first_line(err)}). Check the network/firewall settings of the storage account.") from None
    except HttpResponseError as err:
        if err.status_code == 403 and getattr(err, "error_code", None) == "AuthenticationFailed":
            raise UserErrorException(
                f"The storage account of datastore {datastore_name!r} ({account_url}) refused the datastore's "
                f"credentials for the {action} ({first_line(err)}), also after a fresh SAS was fetched. Check the "
                "datastore's account key or SAS in the Azure ML studio (Data > Datastores).") from None
        if err.status_code == 403:
            raise UserErrorException(
                f"The storage account of datastore {datastore_name!r} ({account_url}) refused the {action} "
                f"({first_line(err)}). Ask for the 'Storage Blob Data {role}' role on it, or register the "
                "datastore with an account key or SAS token.") from None
        rerun = "; files already sent are skipped when you rerun the upload" if writing else ""
        raise UserErrorException(f"{'Uploading to' if writing else 'Reading'} datastore {datastore_name!r} at "
                                 f"{account_url} failed (HTTP {err.status_code}: {first_line(err)}){rerun}.") from None


def last_modified(workspace, datastore_name: str, names: list):
    """The latest change time (UTC datetime) of the named blobs, or None when there are none."""
    container, account_url = _container(workspace, datastore_name)
    wanted = set(names)
    prefix = os.path.commonprefix(names) if names else ""
    with _reachable(datastore_name, account_url):
        stamps = [b.last_modified for b in container.list_blobs(name_starts_with=prefix or None) if b.name in wanted]
    return max(stamps) if stamps else None
