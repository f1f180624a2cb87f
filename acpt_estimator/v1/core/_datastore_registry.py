"""Where v1 datastores are registered: v2 datastores in the cloud; locally ``<store>/datastores.json``.

Locally a datastore's data is the folder ``<store>/datastores/<name>/``; this file only remembers what was
registered (type, container, account, the default). Account keys and SAS tokens are never written locally.
"""

from __future__ import annotations

import logging
import os

from acpt_estimator.datastore_paths import is_local_workspace
from acpt_estimator.exceptions import UserErrorException
from acpt_estimator.names import check
from acpt_estimator.target import offline_mode
from acpt_estimator.v1._refusal import refuse

logger = logging.getLogger(__name__)
_stand_ins_said: set = set()

_BUILTIN = {"workspaceblobstore": "AzureBlob", "workspacefilestore": "AzureFile"}
# v2 DatastoreType values -> v1 datastore_type (v1 called Gen1 "AzureDataLake")
_V2_TYPES = {"AzureBlob": "AzureBlob", "AzureFile": "AzureFile", "AzureDataLakeGen2": "AzureDataLakeGen2",
             "AzureDataLakeGen1": "AzureDataLake", "OneLake": "OneLake"}


def fields(datastore_type, container_name, account_name, protocol=None, endpoint=None) -> dict:
    return {"datastore_type": datastore_type, "container_name": container_name, "account_name": account_name,
            "protocol": protocol or "https", "endpoint": endpoint or "core.windows.net"}


# ---- local registry ----------------------------------------------------------------------------------
def _local_path() -> str:
    from acpt_estimator.backends.local.store import home

    return os.path.join(home(), "datastores.json")


def _local() -> dict:
    from acpt_estimator.backends.local.store import read_json

    try:
        data = read_json(_local_path())
    except FileNotFoundError:
        data = {}
    stores = {name: fields(kind, f"local-{name}", "local", "file", "local") for name, kind in _BUILTIN.items()}
    stores.update(data.get("stores") or {})
    return {"default": data.get("default") or "workspaceblobstore", "stores": stores}


def _folder_of(name) -> str:
    from acpt_estimator.backends.local.store import datastore_folder, home

    return datastore_folder(home(), name)


def _save_local(data: dict) -> None:
    from acpt_estimator.backends.local.store import write_json

    os.makedirs(os.path.dirname(_local_path()), exist_ok=True)
    write_json(_local_path(), {"default": data["default"],
                               "stores": {k: v for k, v in data["stores"].items() if k not in _BUILTIN}})


def _missing(workspace, name, known) -> UserErrorException:
    return UserErrorException(
        f"Datastore.get(ws, {name!r}): no datastore named {name!r} in workspace {workspace.name!r} (it has "
        f"{sorted(known)}). Use ws.get_default_datastore(), or register it with "
        "Datastore.register_azure_blob_container(ws, datastore_name, container_name, account_name, ...).")


# ---- the v1 operations, local or cloud ---------------------------------------------------------------
def describe(workspace, name) -> dict:
    if is_local_workspace(workspace):
        stores = _local()["stores"]
        if name in stores:
            return stores[name]
        if not offline_mode():
            raise _missing(workspace, name, stores)
        # Local runs forced (or `convert`): the driver's datastores live in a workspace nothing contacts, so an
        # unknown name is a folder of the local store, as compute names are stand-ins; said once (a typo lands here).
        if name not in _stand_ins_said:
            _stand_ins_said.add(name)
            logger.warning("Datastore %r is not registered in the local store; local runs use the folder %s for it "
                           "(register it with Datastore.register_azure_blob_container to list it).", name,
                           _folder_of(name))
        return fields("AzureBlob", f"local-{name}", "local", "file", "local")
    from azure.core.exceptions import ResourceNotFoundError

    from acpt_estimator.backends.azureml.client import azure_errors, ml_client

    try:
        with azure_errors(workspace, f"read datastore {name!r}"):
            return _from_v2(ml_client(workspace).datastores.get(name))
    except ResourceNotFoundError:
        raise _missing(workspace, name, list_names(workspace)) from None


def _from_v2(store) -> dict:
    value = str(getattr(store.type, "value", store.type))
    kind = _V2_TYPES.get(value, value)
    container = getattr(store, "container_name", None) or getattr(store, "file_share_name", None) or \
        getattr(store, "filesystem", None) or getattr(store, "store_name", None)
    return fields(kind, container, getattr(store, "account_name", None), getattr(store, "protocol", None),
                  getattr(store, "endpoint", None))


def list_names(workspace) -> list:
    return [name for name, _ in list_all(workspace)]


def list_all(workspace) -> list:
    """(name, fields) of every datastore of the workspace."""
    if is_local_workspace(workspace):
        return sorted(_local()["stores"].items())
    from acpt_estimator.backends.azureml.client import azure_errors, ml_client

    with azure_errors(workspace, "list datastores"):
        return [(store.name, _from_v2(store)) for store in ml_client(workspace).datastores.list()]


def default_name(workspace) -> str:
    if is_local_workspace(workspace):
        return _local()["default"]
    from acpt_estimator.backends.azureml.client import azure_errors, ml_client

    with azure_errors(workspace, "read the default datastore"):
        return ml_client(workspace).datastores.get_default().name


def register(workspace, name, new_fields, overwrite, secret=None, secret_kind="account_key") -> None:
    """Register (or with ``overwrite``, replace) a blob container or file share datastore."""
    check("datastore", name, parameter="datastore_name")
    if name in _BUILTIN:
        raise UserErrorException(f"datastore_name={name!r} is the workspace's own datastore; pick another name.")
    if is_local_workspace(workspace):
        data = _local()
        if name in data["stores"] and data["stores"][name] != new_fields and not overwrite:
            raise UserErrorException(f"Datastore {name!r} is already registered with other settings; pass "
                                     "overwrite=True to replace the registration.")
        data["stores"][name] = new_fields
        _save_local(data)
        return
    from azure.ai.ml.entities import AccountKeyConfiguration, AzureBlobDatastore, AzureFileDatastore, \
        SasTokenConfiguration
    from azure.core.exceptions import ResourceNotFoundError

    from acpt_estimator.backends.azureml.client import azure_errors, ml_client

    client = ml_client(workspace)
    credentials = None
    if secret:
        credentials = AccountKeyConfiguration(account_key=secret) if secret_kind == "account_key" else \
            SasTokenConfiguration(sas_token=secret)
    common = {"name": name, "account_name": new_fields["account_name"], "protocol": new_fields["protocol"],
              "endpoint": new_fields["endpoint"], "credentials": credentials}
    if new_fields["datastore_type"] == "AzureBlob":
        entity = AzureBlobDatastore(container_name=new_fields["container_name"], **common)
    else:
        entity = AzureFileDatastore(file_share_name=new_fields["container_name"], **common)
    with azure_errors(workspace, f"register datastore {name!r}"):
        if not overwrite:
            try:
                existing = _from_v2(client.datastores.get(name))
            except ResourceNotFoundError:
                existing = None
            if existing is not None and existing != new_fields:
                raise UserErrorException(f"Datastore {name!r} is already registered with other settings; pass "
                                         "overwrite=True to replace the registration.")
        client.datastores.create_or_update(entity)


def set_default(workspace, name) -> None:
    if not is_local_workspace(workspace):
        refuse("Datastore.set_as_default (cloud workspace)", "v2's REST API has no operation that changes the "
               "default datastore.", "the Azure ML studio: Data > Datastores > <name> > Set as default")
    data = _local()
    if name not in data["stores"]:
        raise _missing(workspace, name, data["stores"])
    data["default"] = name
    _save_local(data)


def unregister(workspace, name) -> None:
    if name in _BUILTIN:
        raise UserErrorException(f"Datastore {name!r} is the workspace's own datastore and cannot be unregistered.")
    if is_local_workspace(workspace):
        data = _local()
        if name not in data["stores"]:
            raise _missing(workspace, name, data["stores"])
        del data["stores"][name]
        if data["default"] == name:
            data["default"] = "workspaceblobstore"
        _save_local(data)
        return
    from acpt_estimator.backends.azureml.client import azure_errors, ml_client

    with azure_errors(workspace, f"unregister datastore {name!r}"):
        ml_client(workspace).datastores.delete(name)
