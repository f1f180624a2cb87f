"""v1 ``azureml.core.datastore``: a named store in the workspace."""

from __future__ import annotations

import logging
import os

import attrs

from acpt_estimator.exceptions import UserErrorException
from acpt_estimator.datastore_paths import is_local_workspace
from acpt_estimator.names import check
from acpt_estimator.v1.data.data_reference import DataReference

logger = logging.getLogger(__name__)
_warned_datastore_as = set()


def _warn_datastore_deprecated(method: str) -> None:
    if method not in _warned_datastore_as:
        _warned_datastore_as.add(method)
        logger.warning(
            '"datastore.%s" is deprecated after version 1.0.69. Please use "file_dataset.%s" instead. '
            "See Dataset API change notice at https://aka.ms/dataset-deprecation.", method, method)


@attrs.define(eq=False)
class Datastore:
    """v1 ``azureml.core.Datastore``: a named store in the workspace (``workspaceblobstore`` by default)."""

    workspace: object
    # Checked at construction: the name becomes a store folder and part of $AZUREML_DATAREFERENCE_<name>.
    name: str = attrs.field(default="workspaceblobstore",
                            validator=lambda _, __, value: check("datastore", value, parameter="datastore_name"))

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
        from acpt_estimator.backends.local.datastores import list_source_files

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
            from acpt_estimator.backends.local import datastores

            return datastores.upload(self.name, src_dir, target_path, overwrite, show_progress, files)
        from acpt_estimator.backends.azureml import data_ops

        return data_ops.upload(self.workspace, self.name, src_dir, target_path, overwrite, show_progress, files)

    def __str__(self) -> str:
        return f"$AZUREML_DATAREFERENCE_{self.name}"
