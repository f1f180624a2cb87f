"""v1 ``azureml.data.file_dataset``: files on a datastore (or a registered data asset) used as one input."""

from __future__ import annotations

import logging
import os
import shutil
import tempfile
import uuid

from acpt_estimator.datastore_paths import datastore_uri, strip_glob
from acpt_estimator.exceptions import UserErrorException
from acpt_estimator.names import v2_name
from acpt_estimator.v1._refusal import refused
from acpt_estimator.v1.data.abstract_dataset import _NO_CACHE, _NO_EXPRESSIONS, AbstractDataset
from acpt_estimator.v1.data.dataset_consumption_config import DatasetConsumptionConfig
from acpt_estimator._lazy import lazy_names

logger = logging.getLogger(__name__)


class FileDataset(AbstractDataset):
    """v1 ``FileDataset``: files on a datastore (or a registered data asset) used as one input."""

    _kind = "file"

    @property
    def uri_type(self) -> str:
        if len(self.paths) == 1:
            last = self.paths[0][1].rstrip("/").rsplit("/", 1)[-1]
            if last and "*" not in last and "." in last:
                return "uri_file"
        return "uri_folder"

    def uri(self) -> str:
        """The v2 URI: the registered asset if registered, else the datastore folder the globs live in."""
        if self.name:  # the asset's v2 name (a v1 name v2 refuses was registered under a mapped one)
            name = v2_name(self.name)
            return f"azureml:{name}:{self.version}" if self.version else f"azureml:{name}@latest"
        if len(self.paths) != 1:
            raise UserErrorException(
                f"A dataset made of {len(self.paths)} paths cannot be one v2 input. Register it first "
                "(dataset.register(ws, 'name')) or pass each path as its own input.")
        datastore, path = self.paths[0]
        return datastore_uri(datastore.name, strip_glob(path) if self.uri_type == "uri_folder" else path)

    def as_mount(self, path_on_compute=None) -> DatasetConsumptionConfig:
        return DatasetConsumptionConfig(f"input__{uuid.uuid4().hex[:8]}", self).as_mount(path_on_compute)

    def as_download(self, path_on_compute=None) -> DatasetConsumptionConfig:
        return DatasetConsumptionConfig(f"input__{uuid.uuid4().hex[:8]}", self).as_download(path_on_compute)

    # ---- the files ----------------------------------------------------------------------------------------
    def _entries(self):
        from acpt_estimator.job_runtime.acpt_datasets import apply_row_steps, filtered_files
        from acpt_estimator.v1.data._files import full_path, list_files

        try:
            entries = filtered_files(self._definition(), list_files(self.paths),
                                     lambda entry: full_path(entry[0], self.input_root))
        except ValueError as err:
            raise UserErrorException(str(err)) from None
        return apply_row_steps(entries, self.transformations)

    def to_path(self) -> list:
        """The dataset's files, relative to its base folder, as v1: ['/a.txt', '/sub/b.txt']."""
        return ["/" + rel for _, rel in self._entries()]

    def download(self, target_path=None, overwrite=False, ignore_not_found=False) -> list:
        """Copy the files into ``target_path`` (a new temporary folder by default); returns their local paths."""
        from acpt_estimator.v1.data._files import fetch

        entries = self._entries()
        if not entries and not ignore_not_found:
            raise UserErrorException(
                f"download: the dataset's paths {[p for _, p in self.paths]} name no files. Upload the data first, "
                "or pass ignore_not_found=True.")
        target = os.path.abspath(target_path) if target_path else tempfile.mkdtemp(prefix="acpt-dataset-")
        return [path for path, _ in fetch(entries, target, overwrite)]

    def mount(self, mount_point=None, **kwargs) -> "MountContext":
        """A context whose ``mount_point`` holds the files while started (a read-only copy: no FUSE here)."""
        return MountContext(self, mount_point)

    as_cache = refused("FileDataset.as_cache", *_NO_CACHE)
    hydrate = refused("FileDataset.hydrate", *_NO_CACHE)
    as_hdfs = refused("FileDataset.as_hdfs", "HDFS inputs exist only on Synapse Spark pools in v1.",
                      "a v2 Spark job (azure.ai.ml.spark) with the data asset as an input")
    file_metadata = refused("FileDataset.file_metadata", *_NO_EXPRESSIONS)


class MountContext:
    """v1's mount context: ``start()``/``stop()`` or ``with``; the files are at ``mount_point`` while started.

    FUSE mounts are not available to this SDK: start() puts a read-only copy there, stop() removes it.
    """

    def __init__(self, dataset: FileDataset, mount_point=None):
        self._dataset, self._given = dataset, mount_point
        self.mount_point = os.path.abspath(mount_point) if mount_point else tempfile.mkdtemp(prefix="acpt-mount-")
        self._files: list = []

    def start(self) -> None:
        if os.path.isdir(self.mount_point) and os.listdir(self.mount_point):
            raise UserErrorException(f"mount_point {self.mount_point} is not empty; pass an empty or new folder.")
        logger.info("dataset.mount: copying the files to %s (read-only) instead of a FUSE mount", self.mount_point)
        self._files = self._dataset.download(self.mount_point, ignore_not_found=True)
        for path in self._files:
            os.chmod(path, 0o444)

    def stop(self) -> None:
        for path in self._files:
            os.chmod(path, 0o644)
        if self._given:
            for name in os.listdir(self.mount_point):
                target = os.path.join(self.mount_point, name)
                shutil.rmtree(target) if os.path.isdir(target) else os.remove(target)
        else:
            shutil.rmtree(self.mount_point, ignore_errors=True)
        self._files = []

    def __enter__(self) -> "MountContext":
        self.start()
        return self

    def __exit__(self, *exc) -> bool:
        self.stop()
        return False


FILENAME_LENGTH_ERROR_MESSAGE = "exceeds the maximum allowed length"  # v1: text of an OS error it recognised


# v1 names this module also exported, defined elsewhere: resolved on first use (v1-importable.json).
__getattr__, __dir__ = lazy_names(__name__, {
    "UserErrorException": "acpt_estimator.exceptions",
    "AbstractDataset": "acpt_estimator.v1.data.abstract_dataset",
})
