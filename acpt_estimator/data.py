"""v1-shaped data objects (Datastore, DataReference, DataPath, FileDataset) that become job inputs."""

from __future__ import annotations

import logging
import os
import re
import uuid

import attrs

from .exceptions import UserErrorException

logger = logging.getLogger(__name__)

_INPUT_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_warned_datastore_as = set()


def _warn_datastore_deprecated(method: str) -> None:
    if method not in _warned_datastore_as:
        _warned_datastore_as.add(method)
        logger.warning(
            '"datastore.%s" is deprecated after version 1.0.69. Please use "file_dataset.%s" instead. '
            "See Dataset API change notice at https://aka.ms/dataset-deprecation.", method, method)


def is_local_workspace(workspace) -> bool:
    """Data calls stay on this machine for local-only workspaces and whenever local runs are forced."""
    return getattr(workspace, "_offline", True)


def datastore_uri(datastore_name: str, path: str | None) -> str:
    """The v2 URI of a datastore path; a folder path ends with '/'."""
    path = (path or "").lstrip("/")
    return f"azureml://datastores/{datastore_name}/paths/{path}"


def parse_datastore_uri(uri: str):
    """(datastore, path) of ``azureml://datastores/<ds>/paths/<p>``, else None."""
    match = re.match(r"^azureml://datastores/([^/]+)/paths/(.*)$", uri or "")
    return (match[1], match[2]) if match else None


def check_input_name(name: str) -> str:
    if not isinstance(name, str) or not _INPUT_NAME.match(name):
        raise UserErrorException(
            f'Invalid input name "{name}". The name can only be alphanumeric characters and underscore, '
            "and must not begin with a number. Rename the input, e.g. as_named_input('train')."
        )
    return name


@attrs.define(eq=False)
class DataReference:
    """v1 ``azureml.data.data_reference.DataReference``: a datastore path and how the job sees it."""

    datastore: "Datastore"
    data_reference_name: str | None = None
    path_on_datastore: str | None = None
    mode: str = "mount"
    path_on_compute: str | None = None
    overwrite: bool = False

    def __attrs_post_init__(self):
        if self.data_reference_name is None:
            self.data_reference_name = self.datastore.name if self.path_on_datastore is None else uuid.uuid4().hex
        if self.mode not in ("mount", "download", "upload", "direct"):
            raise UserErrorException(
                f"DataReference mode={self.mode!r} is not supported; use 'mount', 'download' or 'upload'.")

    def _with_mode(self, mode, path_on_compute=None, overwrite=False) -> "DataReference":
        return attrs.evolve(self, mode=mode, path_on_compute=path_on_compute, overwrite=overwrite)

    def as_mount(self) -> "DataReference":
        return self._with_mode("mount")

    def as_download(self, path_on_compute=None, overwrite=False) -> "DataReference":
        return self._with_mode("download", path_on_compute, overwrite)

    def as_upload(self, path_on_compute=None, overwrite=False) -> "DataReference":
        return self._with_mode("upload", path_on_compute, overwrite)

    @property
    def is_output(self) -> bool:
        return self.mode == "upload"

    def __str__(self) -> str:
        return f"$AZUREML_DATAREFERENCE_{self.data_reference_name}"


@attrs.define(eq=False)
class Datastore:
    """v1 ``azureml.core.Datastore``: a named store in the workspace (``workspaceblobstore`` by default)."""

    workspace: object
    name: str = "workspaceblobstore"

    @classmethod
    def get(cls, workspace, datastore_name: str) -> "Datastore":
        return workspace._get_datastore(datastore_name) if hasattr(workspace, "_get_datastore") else cls(workspace, datastore_name)

    @classmethod
    def get_default(cls, workspace) -> "Datastore":
        return cls.get(workspace, "workspaceblobstore")

    def path(self, path: str | None = None, data_reference_name: str | None = None) -> DataReference:
        return DataReference(self, data_reference_name, path_on_datastore=path)

    def as_mount(self) -> DataReference:
        _warn_datastore_deprecated("as_mount")
        return DataReference(self, self.name, None, "mount")

    def as_download(self, path_on_compute=None) -> DataReference:
        _warn_datastore_deprecated("as_download")
        return DataReference(self, self.name, None, "download", path_on_compute)

    def as_upload(self, path_on_compute=None) -> DataReference:
        _warn_datastore_deprecated("as_upload")
        return DataReference(self, self.name, None, "upload", path_on_compute)

    def upload(self, src_dir, target_path=None, overwrite=False, show_progress=True) -> DataReference:
        """v1 (deprecated but common): copy a folder to ``target_path``; returns a reference to it.

        Locally the datastore is a folder of the local store; in the cloud the files go to the blob container.
        Files already there with the same content are skipped; different ones need ``overwrite=True``.
        """
        from .backends.local.datastores import list_source_files

        files = list_source_files(src_dir)
        self._upload(src_dir, files, target_path, overwrite, show_progress)
        return DataReference(self, data_reference_name=None, path_on_datastore=target_path)

    def upload_files(self, files, relative_root=None, target_path=None, overwrite=False, show_progress=True):
        """v1: upload individual files, keeping their paths relative to ``relative_root``."""
        root = relative_root or os.path.commonpath([os.path.dirname(os.path.abspath(f)) for f in files])
        relative = [os.path.relpath(os.path.abspath(f), root).replace(os.sep, "/") for f in files]
        missing = [f for f in files if not os.path.isfile(f)]
        if missing:
            raise UserErrorException(f"upload_files: {missing} do not exist. Pass paths of existing files.")
        self._upload(root, relative, target_path, overwrite, show_progress)
        return DataReference(self, data_reference_name=None, path_on_datastore=target_path)

    def _upload(self, src_dir, files, target_path, overwrite, show_progress):
        if is_local_workspace(self.workspace):
            from .backends.local import datastores

            return datastores.upload(self.name, src_dir, target_path, overwrite, show_progress, files)
        from .backends.azureml import data_ops

        return data_ops.upload(self.workspace, self.name, src_dir, target_path, overwrite, show_progress, files)

    def __str__(self) -> str:
        return f"$AZUREML_DATAREFERENCE_{self.name}"


@attrs.define(eq=False)
class DataPath:
    """v1 ``azureml.data.datapath.DataPath``: a datastore path without a mode (mounted when consumed)."""

    datastore: Datastore | None = None
    path_on_datastore: str | None = None
    name: str | None = None

    def create_data_reference(self, data_reference_name=None, datapath_compute_binding=None) -> DataReference:
        mode = getattr(datapath_compute_binding, "mode", None) or "mount"
        return DataReference(self.datastore, data_reference_name or self.name, self.path_on_datastore, mode)


@attrs.define(eq=False)
class DatasetConsumptionConfig:
    """v1: how a job consumes a dataset (``dataset.as_named_input('x').as_mount()``)."""

    name: str
    dataset: "FileDataset"
    mode: str = "direct"
    path_on_compute: str | None = None

    def __attrs_post_init__(self):
        check_input_name(self.name)

    def as_mount(self, path_on_compute=None) -> "DatasetConsumptionConfig":
        return attrs.evolve(self, mode="mount", path_on_compute=path_on_compute)

    def as_download(self, path_on_compute=None) -> "DatasetConsumptionConfig":
        return attrs.evolve(self, mode="download", path_on_compute=path_on_compute)

    def __str__(self) -> str:
        return f"DatasetConsumptionConfig:{self.name}"


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
            from .backends.local import datastores

            record = datastores.register(name, [(d.name, p) for d, p in self.paths], description, tags,
                                         create_new_version)
            version = str(record["version"])
        else:
            from .backends.azureml import data_ops

            version = data_ops.register_dataset(workspace, name, self.uri(), self.uri_type, description, tags,
                                                create_new_version)
        return FileDataset(paths=self.paths, name=name, version=version, workspace=workspace)

    def as_mount(self, path_on_compute=None) -> DatasetConsumptionConfig:
        return DatasetConsumptionConfig(f"input__{uuid.uuid4().hex[:8]}", self).as_mount(path_on_compute)

    def as_download(self, path_on_compute=None) -> DatasetConsumptionConfig:
        return DatasetConsumptionConfig(f"input__{uuid.uuid4().hex[:8]}", self).as_download(path_on_compute)


def strip_glob(path: str) -> str:
    """'mnist/**' -> 'mnist/': v2 folders are mounted whole."""
    parts = [p for p in path.split("/") if p]
    while parts and any(ch in parts[-1] for ch in "*?["):
        parts.pop()
    return "/".join(parts) + "/" if parts else ""
