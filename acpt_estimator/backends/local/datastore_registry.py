"""Datastores registered in the local store: ``<store>/datastores.json`` (the workspace's datastores service).

Locally a datastore's data is the folder ``<store>/datastores/<name>/``; this file only remembers what was
registered (type, container, account, the default). Account keys and SAS tokens are never written locally.
"""

from __future__ import annotations

import logging
import os

from ...datastore_paths import BUILTIN_DATASTORES, datastore_fields, missing_datastore
from ...exceptions import UserErrorException
from ...target import offline_mode
from .store import datastore_folder, home, read_json, write_json
from .store_grants import refuse

logger = logging.getLogger(__name__)
_stand_ins_said: set = set()


def _path() -> str:
    return os.path.join(home(), "datastores.json")


def _load() -> dict:
    try:
        data = read_json(_path())
    except FileNotFoundError:
        data = {}
    stores = {name: datastore_fields(kind, f"local-{name}", "local", "file", "local")
              for name, kind in BUILTIN_DATASTORES.items()}
    stores.update(data.get("stores") or {})
    return {"default": data.get("default") or "workspaceblobstore", "stores": stores}


def _save(data: dict) -> None:
    refuse(home(), "change the datastore registrations")
    os.makedirs(os.path.dirname(_path()), exist_ok=True)
    write_json(_path(), {"default": data["default"],
                         "stores": {k: v for k, v in data["stores"].items() if k not in BUILTIN_DATASTORES}})


class LocalDatastores:
    def __init__(self, workspace):
        self.workspace = workspace

    def describe(self, name) -> dict:
        stores = _load()["stores"]
        if name in stores:
            return stores[name]
        if not offline_mode():
            raise missing_datastore(self.workspace, name, stores)
        # Local runs forced (or `convert`): the driver's datastores live in a workspace nothing contacts, so an
        # unknown name is a folder of the local store, as compute names are stand-ins; said once (a typo lands here).
        if name not in _stand_ins_said:
            _stand_ins_said.add(name)
            logger.warning("Datastore %r is not registered in the local store; local runs use the folder %s for it "
                           "(register it with Datastore.register_azure_blob_container to list it).", name,
                           datastore_folder(home(), name))
        return datastore_fields("AzureBlob", f"local-{name}", "local", "file", "local")

    def list_all(self) -> list:
        return sorted(_load()["stores"].items())

    def default_name(self) -> str:
        return _load()["default"]

    def register(self, name, new_fields, overwrite, secret=None, secret_kind="account_key") -> None:
        data = _load()
        if name in data["stores"] and data["stores"][name] != new_fields and not overwrite:
            raise UserErrorException(f"Datastore {name!r} is already registered with other settings; pass "
                                     "overwrite=True to replace the registration.")
        data["stores"][name] = new_fields
        _save(data)

    def set_default(self, name) -> None:
        data = _load()
        if name not in data["stores"]:
            raise missing_datastore(self.workspace, name, data["stores"])
        data["default"] = name
        _save(data)

    def unregister(self, name) -> None:
        data = _load()
        if name not in data["stores"]:
            raise missing_datastore(self.workspace, name, data["stores"])
        del data["stores"][name]
        if data["default"] == name:
            data["default"] = "workspaceblobstore"
        _save(data)

    def upload(self, name, src_dir, target_path, overwrite, show_progress, files) -> None:
        """Copy ``files`` (relative to ``src_dir``) into the datastore's folder of the local store."""
        from .datastores import upload

        return upload(name, src_dir, target_path, overwrite, show_progress, files)

    def download(self, name, target_path, prefix, overwrite, show_progress) -> int:
        from .datastores import download

        return download(name, target_path, prefix, overwrite, show_progress)
