"""The local environment registry: ``<store>/environments/<name>/<version>/`` folders (v1's save_to_directory form)."""

from __future__ import annotations

import json
import os

from ...names import check, name_of_key, storage_key
from .store import home


def registry_folder(store_home: str | None = None) -> str:
    return os.path.join(store_home or home(), "environments")


def _checked(name: str) -> str:
    """The folder of an environment name: any v1 name, as a storage key (never a path)."""
    return storage_key(check("environment", name, parameter="name"))


def versions(name: str, store_home: str | None = None) -> list[str]:
    """Registered versions of ``name``, oldest first."""
    folder = os.path.join(registry_folder(store_home), _checked(name))
    if not os.path.isdir(folder):
        return []
    return sorted((v for v in os.listdir(folder) if v.isdigit()), key=int)


def names(store_home: str | None = None) -> list[str]:
    folder = registry_folder(store_home)
    if not os.path.isdir(folder):
        return []
    return sorted(_name_in(os.path.join(folder, key), key) for key in os.listdir(folder) if _version_numbers(key, folder))


def _version_numbers(key: str, folder: str) -> list[str]:
    path = os.path.join(folder, key)
    return [v for v in os.listdir(path) if v.isdigit()] if os.path.isdir(path) else []


def _name_in(folder: str, key: str) -> str:
    """The name an environment folder holds (a cut, hashed key: from its saved definition)."""
    if "~" not in key:
        return name_of_key(key)
    latest = max(_version_numbers(os.path.basename(folder), os.path.dirname(folder)), key=int)
    with open(os.path.join(folder, latest, "azureml_environment.json"), encoding="utf-8") as handle:
        return json.load(handle)["name"]


def version_folder(name: str, version: str, store_home: str | None = None) -> str:
    return os.path.join(registry_folder(store_home), _checked(name), storage_key(str(version)))
