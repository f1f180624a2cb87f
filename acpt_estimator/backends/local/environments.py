"""The local environment registry: ``<store>/environments/<name>/<version>/`` folders (v1's save_to_directory form)."""

from __future__ import annotations

import json
import os

from ...exceptions import UserErrorException
from ...names import check, name_of_key, storage_key
from .store import home
from .store_grants import refuse


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


class LocalEnvironments:
    """The workspace's environments service for a local workspace: v1 definitions in the local registry.

    Definitions are v1 ``Environment`` objects handed in (read through their methods: ``_to_dict``, ``clone``,
    ``save_to_directory``) and loaded back with the ``load`` the caller gives (v1's ``load_from_directory``)."""

    where = "this machine's store"
    build_note = "Local runs use the current Python environment; build_local(ws) builds the image with Docker."

    def __init__(self, workspace):
        self.workspace = workspace

    def register(self, env):
        """A new local version of ``env.name`` unless the latest one has the same content."""
        refuse(home(), f"register environment {env.name!r}")
        known = versions(env.name)
        if known:
            latest = type(env).load_from_directory(version_folder(env.name, known[-1]))
            if _content(latest) == _content(env):
                return latest
        version = env.version or str(int(known[-1]) + 1 if known else 1)
        registered = env.clone(env.name)
        registered.version = version
        folder = version_folder(env.name, version)
        if os.path.isdir(folder):
            raise UserErrorException(f"Environment {env.name}:{version} is already registered with other content; "
                                     "set env.version = None to register a new version.")
        registered.save_to_directory(folder)
        return registered

    def find(self, name, version, load):
        """The registered definition (``load(folder)``), or None when ``name`` is not in the local registry."""
        known = versions(name)
        if version is not None and str(version) not in known:
            if known:
                raise UserErrorException(f"Environment {name!r} has no version {version!r} in the local store; "
                                         f"registered versions: {known}.")
            return None
        if not known:
            return None
        return load(version_folder(name, str(version or known[-1])))

    def resolve(self, name, version, label):
        """None: a name the local registry lacks is resolved when a job uses it."""
        return None

    def names(self) -> list:
        return names()

    def image(self, name, version, label):
        raise UserErrorException(f"Environment {name!r} is not in the local store; register it first "
                                 "(env.register(ws)).")


def _content(env) -> str:
    data = env._to_dict()
    data.pop("version", None)
    return json.dumps(data, sort_keys=True)
