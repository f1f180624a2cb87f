"""Where v1 datastores are registered: the workspace's datastores service (``acpt_estimator.services``), which is
``<store>/datastores.json`` locally (``backends/local/datastore_registry.py``) and the workspace's v2 datastores in
the cloud (``backends/azureml/datastore_registry.py``). The rules v1 applies to any workspace are kept here."""

from __future__ import annotations

from acpt_estimator.datastore_paths import BUILTIN_DATASTORES as _BUILTIN
from acpt_estimator.datastore_paths import datastore_fields as fields  # noqa: F401 - datastore.py uses it
from acpt_estimator.exceptions import UserErrorException
from acpt_estimator.names import check


def _store(workspace):
    from acpt_estimator.services import services_for

    return services_for(workspace).datastores


def describe(workspace, name) -> dict:
    return _store(workspace).describe(name)


def list_names(workspace) -> list:
    return [name for name, _ in list_all(workspace)]


def list_all(workspace) -> list:
    """(name, fields) of every datastore of the workspace."""
    return _store(workspace).list_all()


def default_name(workspace) -> str:
    return _store(workspace).default_name()


def register(workspace, name, new_fields, overwrite, secret=None, secret_kind="account_key") -> None:
    """Register (or with ``overwrite``, replace) a blob container or file share datastore."""
    check("datastore", name, parameter="datastore_name")
    if name in _BUILTIN:
        raise UserErrorException(f"datastore_name={name!r} is the workspace's own datastore; pick another name.")
    _store(workspace).register(name, new_fields, overwrite, secret=secret, secret_kind=secret_kind)


def set_default(workspace, name) -> None:
    _store(workspace).set_default(name)


def unregister(workspace, name) -> None:
    if name in _BUILTIN:
        raise UserErrorException(f"Datastore {name!r} is the workspace's own datastore and cannot be unregistered.")
    _store(workspace).unregister(name)
