"""v1 ``azureml.data.file_dataset``: files on a datastore (or a registered data asset) used as one input."""

from __future__ import annotations

import uuid

import attrs

from acpt_estimator.exceptions import UserErrorException
from acpt_estimator.datastore_paths import datastore_uri, is_local_workspace, strip_glob
from acpt_estimator.v1.data.dataset_consumption_config import DatasetConsumptionConfig


@attrs.define(eq=False)
class FileDataset:
    """v1 ``FileDataset``: files on a datastore (or a registered data asset) used as one input."""

    paths: tuple = ()  # ((Datastore, path), ...)
    name: str | None = None
    version: str | None = None
    workspace: object = None

    @property
    def uri_type(self) -> str:
        if len(self.paths) == 1:
            last = self.paths[0][1].rstrip("/").rsplit("/", 1)[-1]
            if last and "*" not in last and "." in last:
                return "uri_file"
        return "uri_folder"

    def uri(self) -> str:
        """The v2 URI: the registered asset if registered, else the datastore folder the globs live in."""
        if self.name:
            return f"azureml:{self.name}:{self.version}" if self.version else f"azureml:{self.name}@latest"
        if len(self.paths) != 1:
            raise UserErrorException(
                f"A dataset made of {len(self.paths)} paths cannot be one v2 input. Register it first "
                "(dataset.register(ws, 'name')) or pass each path as its own input.")
        datastore, path = self.paths[0]
        return datastore_uri(datastore.name, strip_glob(path) if self.uri_type == "uri_folder" else path)

    def as_named_input(self, name: str) -> DatasetConsumptionConfig:
        return DatasetConsumptionConfig(name, self)

    def register(self, workspace, name, description=None, tags=None, create_new_version=False) -> "FileDataset":
        """Register under ``name`` (a new version only with ``create_new_version=True`` when the paths differ)."""
        if not isinstance(name, str) or not name:
            raise UserErrorException(f"dataset.register(name={name!r}): pass the name to register the dataset as.")
        if not self.paths:
            raise UserErrorException("Only a dataset made from datastore paths can be registered "
                                     "(Dataset.File.from_files(path=(ds, 'folder/**'))).")
        if is_local_workspace(workspace):
            from acpt_estimator.backends.local import datastores

            record = datastores.register(name, [(d.name, p) for d, p in self.paths], description, tags,
                                         create_new_version)
            version = str(record["version"])
        else:
            from acpt_estimator.backends.azureml import data_ops

            version = data_ops.register_dataset(workspace, name, self.uri(), self.uri_type, description, tags,
                                                create_new_version)
        return FileDataset(paths=self.paths, name=name, version=version, workspace=workspace)

    def as_mount(self, path_on_compute=None) -> DatasetConsumptionConfig:
        return DatasetConsumptionConfig(f"input__{uuid.uuid4().hex[:8]}", self).as_mount(path_on_compute)

    def as_download(self, path_on_compute=None) -> DatasetConsumptionConfig:
        return DatasetConsumptionConfig(f"input__{uuid.uuid4().hex[:8]}", self).as_download(path_on_compute)
