"""Registered datasets in both backends: the local store's registry, or v2 data assets (definition in properties)."""

from __future__ import annotations

import json
import os
import re

import attrs

from acpt_estimator.datastore_paths import datastore_uri, is_local_workspace, is_url, parse_datastore_uri
from acpt_estimator.exceptions import UserErrorException
from acpt_estimator.names import check

DEFINITION_PROPERTY = "acpt.dataset"  # a data asset's v1 definition: type, paths under the asset's folder, steps


def _make(workspace, kind: str, paths, transformations=(), **meta):
    from acpt_estimator.v1.data.file_dataset import FileDataset
    from acpt_estimator.v1.data.tabular_dataset import TabularDataset

    cls = TabularDataset if kind == "tabular" else FileDataset
    return cls(paths=tuple(paths), transformations=tuple(transformations), workspace=workspace, **meta)


def _datastore(workspace, name: str):
    from acpt_estimator.v1.core.datastore import Datastore

    return Datastore.get(workspace, name)


# ---- local records <-> datasets -----------------------------------------------------------------------------
def _from_record(workspace, record: dict):
    paths = [(_datastore(workspace, d) if d else None, p) for d, p in record["paths"]]  # None: a web URL
    return _make(workspace, record.get("type", "file"), paths,
                 record.get("transformations", ()), name=record["name"], version=str(record["version"]),
                 id=record.get("id"), description=record.get("description"), tags=dict(record.get("tags") or {}))


# ---- cloud data assets <-> datasets -------------------------------------------------------------------------
def _from_asset(workspace, asset):
    from acpt_estimator.backends.azureml.data_ops import asset_path, asset_v1_name

    definition = json.loads((asset.properties or {}).get(DEFINITION_PROPERTY) or "null") or {}
    parsed = parse_datastore_uri(asset_path(workspace, asset))
    if parsed is None and is_url(asset.path):
        return _make(workspace, definition.get("type", "file"), [(None, asset.path)],
                     definition.get("transformations", ()), name=asset_v1_name(asset), version=str(asset.version), id=asset.id,
                     description=asset.description, tags=dict(asset.tags or {}))
    if parsed is None:
        raise UserErrorException(
            f"Data asset {asset.name}:{asset.version} ({asset.type}, {asset.path}) is not a datastore path; v1 "
            "datasets here read datastore paths. Load it with azure-ai-ml (ml_client.data.get) or mltable.")
    store, path = parsed
    relative = definition.get("paths")
    paths = [(_datastore(workspace, store), path + rel) for rel in relative] if relative else [
        (_datastore(workspace, store), path)]
    return _make(workspace, definition.get("type", "file"), paths, definition.get("transformations", ()),
                 name=asset_v1_name(asset), version=str(asset.version), id=asset.id, description=asset.description,
                 tags=dict(asset.tags or {}))


def register(dataset, workspace, name, description=None, tags=None, create_new_version=False):
    check("dataset", name, parameter="name")  # both backends: a folder locally, a REST path segment in the cloud
    if not dataset.paths:
        raise UserErrorException("Only a dataset made from datastore paths can be registered "
                                 "(Dataset.File.from_files(path=(ds, 'folder/**'))).")
    url = dataset._url()
    if any(d is None for d, _ in dataset.paths) and url is None:
        raise UserErrorException("A dataset read from a job's local input cannot be registered; register the "
                                 "dataset it came from (Dataset.get_by_name) in the driver.")
    if is_local_workspace(workspace):
        from acpt_estimator.backends.local import datastores

        steps = {"type": dataset._kind, "transformations": list(dataset.transformations)}
        record = datastores.register(name, [(d.name if d else None, p) for d, p in dataset.paths], description,
                                     tags, create_new_version, steps=steps)
        return _from_record(workspace, record)
    from acpt_estimator.backends.azureml import data_ops

    if url is not None:  # a web file: a uri_file asset of that URL
        uri, uri_type, relative = url, "uri_file", [""]
    else:
        datastore, folder, relative = dataset._base()
        uri, uri_type = datastore_uri(datastore.name, folder), "uri_folder"
    definition = json.dumps(dataset._definition(relative), sort_keys=True)
    asset = data_ops.register_dataset(workspace, name, uri, uri_type, description, tags, create_new_version,
                                      {DEFINITION_PROPERTY: definition})
    return _from_asset(workspace, asset)


def get_by_name(workspace, name, version="latest"):
    if not name or not isinstance(name, str):
        raise UserErrorException(f"Dataset.get_by_name(name={name!r}): pass the registered dataset's name.")
    if is_local_workspace(workspace):
        from acpt_estimator.backends.local import datastores

        return _from_record(workspace, datastores.get(name, version))
    from acpt_estimator.backends.azureml import data_ops

    return _from_asset(workspace, data_ops.get_dataset(workspace, name, version))


def get_by_id(workspace, dataset_id):
    """A registered dataset by id, or (inside a job) the dataset input whose path or id the job was given."""
    if not isinstance(dataset_id, str) or not dataset_id:
        raise UserErrorException(f"Dataset.get_by_id(id={dataset_id!r}): pass the dataset's id (dataset.id).")
    from acpt_estimator.v1.data.job_inputs import input_dataset_for

    found = input_dataset_for(dataset_id, workspace)
    if found is not None:
        return found
    if is_local_workspace(workspace):
        from acpt_estimator.backends.local import datastores

        record = datastores.get_by_id(dataset_id)
        if record is None:
            raise UserErrorException(f"No dataset with id {dataset_id!r} is registered in the local store; "
                                     "list them with Dataset.get_all(ws).")
        return _from_record(workspace, record)
    match = re.search(r"/data/([^/]+)/versions/([^/]+)$", dataset_id)
    if match is None:
        raise UserErrorException(f"Dataset.get_by_id(id={dataset_id!r}): pass a data asset id ending in "
                                 "/data/<name>/versions/<version> (dataset.id), or use Dataset.get_by_name.")
    return get_by_name(workspace, match[1], match[2])


def get_all(workspace) -> dict:
    if is_local_workspace(workspace):
        from acpt_estimator.backends.local import datastores

        names = datastores.names()
    else:
        from acpt_estimator.backends.azureml import data_ops

        names = data_ops.dataset_names(workspace)
    return {name: get_by_name(workspace, name) for name in names}


def update(dataset, description=None, tags=None):
    workspace = dataset.workspace
    if is_local_workspace(workspace):
        from acpt_estimator.backends.local import datastores

        fields = {k: v for k, v in (("description", description), ("tags", dict(tags) if tags is not None else None))
                  if v is not None}
        return _from_record(workspace, datastores.update(dataset.name, dataset.version, **fields))
    from acpt_estimator.backends.azureml import data_ops

    asset = data_ops.get_dataset(workspace, dataset.name, dataset.version)
    return _from_asset(workspace, data_ops.update_dataset(workspace, asset, description, tags))


def unregister(dataset) -> None:
    if is_local_workspace(dataset.workspace):
        from acpt_estimator.backends.local import datastores

        datastores.unregister(dataset.name)
    else:
        from acpt_estimator.backends.azureml import data_ops

        data_ops.archive_dataset(dataset.workspace, dataset.name)


def from_local_input(name: str, path: str, definition: dict, workspace=None):
    """The dataset a job input stands for, rooted at the job's local path of it."""
    root = path.rstrip(os.sep) + os.sep if os.path.isdir(path) else path
    paths = [(None, root + rel if os.path.isdir(path) else path) for rel in definition.get("paths") or [""]]
    dataset = _make(workspace, definition.get("type", "file"), paths, definition.get("transformations", ()))
    return attrs.evolve(dataset, name=definition.get("name") or None, version=definition.get("version"),
                        id=definition.get("id"), input_root=(path, definition.get("root") or ""))
