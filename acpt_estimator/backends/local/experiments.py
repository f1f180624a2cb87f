"""Local experiments: tags kept in ``<store>/experiments/<name>.json``; names are those of the store's runs."""

from __future__ import annotations

import os

from ...names import storage_key
from .store import all_run_records, home, read_json, write_json
from .store_grants import refuse


class ExperimentTags:
    """One experiment's tags in the local store (read-modify-write through an atomic rename)."""

    def __init__(self, name: str, store_home: str | None = None):
        # the name as a storage key: any v1 experiment name, never a path
        self.path = os.path.join(store_home or home(), "experiments", f"{storage_key(name, room=250)}.json")

    def read(self) -> dict:
        try:
            return dict(read_json(self.path))
        except (OSError, ValueError):
            return {}

    def update(self, tags: dict) -> None:
        self._write({**self.read(), **tags})

    def remove(self, keys) -> None:
        self._write({k: v for k, v in self.read().items() if k not in set(keys)})

    def _write(self, tags: dict) -> None:
        refuse(os.path.dirname(os.path.dirname(self.path)), "change experiment tags")
        os.makedirs(os.path.dirname(self.path), exist_ok=True)
        write_json(self.path, tags)


def experiment_names(store_home: str | None = None) -> list:
    """Names of the experiments with a run in the store, most recent first."""
    return list(dict.fromkeys(r.get("experimentName") for r in all_run_records(store_home) if r.get("experimentName")))
