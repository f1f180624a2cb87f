"""v1 datasets registered in a workspace, through its datasets service (the local store's registry, or v2 data
assets with the v1 definition in their properties), and the dataset a job input stands for."""

from __future__ import annotations

import os

import attrs

from acpt_estimator.exceptions import UserErrorException
from acpt_estimator.names import check

def _make(workspace, kind: str, paths, transformations=(), **meta):
    from acpt_estimator.v1.data.file_dataset import FileDataset
    from acpt_estimator.v1.data.tabular_dataset import TabularDataset

    cls = TabularDataset if kind == "tabular" else FileDataset
    return cls(paths=tuple(paths), transformations=tuple(transformations), workspace=workspace, **meta)


def _datastore(workspace, name: str):
    from acpt_estimator.v1.core.datastore import Datastore

    return Datastore.get(workspace, name)


def _datasets(workspace):
    """The workspace's datasets service (``acpt_estimator.services``): the local registry, or v2 data assets."""
    from acpt_estimator.services import services_for

    return services_for(workspace).datasets


def _from_record(workspace, record: dict):
    """A dataset from the service's record (datastore names become the workspace's datastores)."""
    paths = [(_datastore(workspace, d) if d else None, p) for d, p in record["paths"]]  # None: a web URL
    return _make(workspace, record.get("type", "file"), paths,
                 record.get("transformations", ()), name=record["name"], version=str(record["version"]),
                 id=record.get("id"), description=record.get("description"), tags=dict(record.get("tags") or {}))


def register(dataset, workspace, name, description=None, tags=None, create_new_version=False):
    check("dataset", name, parameter="name")  # both backends: a folder locally, a REST path segment in the cloud
    if not dataset.paths:
        raise UserErrorException("Only a dataset made from datastore paths can be registered "
                                 "(Dataset.File.from_files(path=(ds, 'folder/**'))).")
    if any(d is None for d, _ in dataset.paths) and dataset._url() is None:
        raise UserErrorException("A dataset read from a job's local input cannot be registered; register the "
                                 "dataset it came from (Dataset.get_by_name) in the driver.")
    return _from_record(workspace, _datasets(workspace).register(dataset, name, description, tags,
                                                                 create_new_version))


def get_by_name(workspace, name, version="latest"):
    if not name or not isinstance(name, str):
        raise UserErrorException(f"Dataset.get_by_name(name={name!r}): pass the registered dataset's name.")
    return _from_record(workspace, _datasets(workspace).get(name, version))


def get_by_id(workspace, dataset_id):
    """A registered dataset by id, or (inside a job) the dataset input whose path or id the job was given."""
    if not isinstance(dataset_id, str) or not dataset_id:
        raise UserErrorException(f"Dataset.get_by_id(id={dataset_id!r}): pass the dataset's id (dataset.id).")
    from acpt_estimator.v1.data.job_inputs import input_dataset_for

    found = input_dataset_for(dataset_id, workspace)
    if found is not None:
        return found
    return _from_record(workspace, _datasets(workspace).get_by_id(dataset_id))


def get_all(workspace) -> dict:
    return {name: get_by_name(workspace, name) for name in _datasets(workspace).names()}


def update(dataset, description=None, tags=None):
    workspace = dataset.workspace
    return _from_record(workspace, _datasets(workspace).update(dataset.name, dataset.version, description, tags))


def unregister(dataset) -> None:
    _datasets(dataset.workspace).unregister(dataset.name)


def from_local_input(name: str, path: str, definition: dict, workspace=None):
    """The dataset a job input stands for, rooted at the job's local path of it."""
    root = path.rstrip(os.sep) + os.sep if os.path.isdir(path) else path
    paths = [(None, root + rel if os.path.isdir(path) else path) for rel in definition.get("paths") or [""]]
    dataset = _make(workspace, definition.get("type", "file"), paths, definition.get("transformations", ()))
    return attrs.evolve(dataset, name=definition.get("name") or None, version=definition.get("version"),
                        id=definition.get("id"), input_root=(path, definition.get("root") or ""))
