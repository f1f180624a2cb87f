"""The local environment registry: ``<store>/environments/<name>/<version>/`` folders (v1's save_to_directory form)."""

from __future__ import annotations

import os

from ...exceptions import UserErrorException
from .store import home


def registry_folder(store_home: str | None = None) -> str:
    return os.path.join(store_home or home(), "environments")


def _checked(name: str) -> str:
    if not name or name in (".", "..") or any(c in name for c in "/\\\0"):
        raise UserErrorException(f"Environment name {name!r} cannot name a folder; use letters, digits, '-', '_', '.'.")
    return name


def versions(name: str, store_home: str | None = None) -> list[str]:
    """Registered versions of ``name``, oldest first."""
    folder = os.path.join(registry_folder(store_home), _checked(name))
    if not os.path.isdir(folder):
        return []
    return sorted((v for v in os.listdir(folder) if v.isdigit()), key=int)


def names(store_home: str | None = None) -> list[str]:
    folder = registry_folder(store_home)
    return sorted(n for n in os.listdir(folder) if versions(n, store_home)) if os.path.isdir(folder) else []


def version_folder(name: str, version: str, store_home: str | None = None) -> str:
    return os.path.join(registry_folder(store_home), _checked(name), _checked(str(version)))
