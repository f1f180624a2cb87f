"""Datasets of a local workspace (the workspace's datasets service): the local store's registry
(``datastores.py``, ``<store>/datasets/``) and the files of its datastore folders.

Registered datasets come back as records: ``{"type", "paths": [[datastore name or None, path]], "transformations",
"name", "version", "id", "description", "tags"}`` (what the registry stores); v1 turns them into datasets."""

from __future__ import annotations

import os

from ...exceptions import UserErrorException
from . import datastores


class LocalDatasets:
    def __init__(self, workspace):
        self.workspace = workspace

    def register(self, dataset, name, description=None, tags=None, create_new_version=False) -> dict:
        """Record the dataset's (datastore name, path) pairs, kind and transformations under ``name``."""
        steps = {"type": dataset._kind, "transformations": list(dataset.transformations)}
        return datastores.register(name, [(d.name if d else None, p) for d, p in dataset.paths], description,
                                   tags, create_new_version, steps=steps)

    def get(self, name, version="latest") -> dict:
        return datastores.get(name, version)

    def get_by_id(self, dataset_id) -> dict:
        record = datastores.get_by_id(dataset_id)
        if record is None:
            raise UserErrorException(f"No dataset with id {dataset_id!r} is registered in the local store; "
                                     "list them with Dataset.get_all(ws).")
        return record

    def names(self) -> list:
        return datastores.names()

    def update(self, name, version, description=None, tags=None) -> dict:
        fields = {k: v for k, v in (("description", description), ("tags", dict(tags) if tags is not None else None))
                  if v is not None}
        return datastores.update(name, version, **fields)

    def unregister(self, name) -> None:
        datastores.unregister(name)

    def files(self, datastore, path: str) -> list:
        """[(source, relative path)] of the files ``path`` (a glob) names in the datastore's local folder; a source
        is ``('local', absolute path)``."""
        from ...job_runtime.acpt_datasets import local_files, select, split_glob
        from .store import datastore_folder, home

        root, prefix = datastore_folder(home(), datastore.name), split_glob(path.lstrip("/"))[0]
        start = os.path.join(root, *prefix.split("/"))
        listed = [prefix.rstrip("/") + "/" + f if prefix.strip("/") else f for f in local_files(start)] \
            if os.path.isdir(start) else [prefix] if os.path.isfile(start) else []
        return [(("local", os.path.join(root, *rel.split("/"))), shown) for rel, shown in select(listed, path)]
