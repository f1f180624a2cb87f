"""v1 ``Dataset``: file datasets made from datastore paths, or referenced by registered name."""

from __future__ import annotations

from .data import Datastore, FileDataset
from .exceptions import UserErrorException


def _paths(path) -> tuple:
    """v1 accepts (datastore, 'p'), [(datastore, 'p'), ...] and DataPath-like objects."""
    items = path if isinstance(path, list) else [path]
    result = []
    for item in items:
        if isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], Datastore):
            result.append((item[0], item[1]))
        elif hasattr(item, "datastore") and hasattr(item, "path_on_datastore"):
            result.append((item.datastore, item.path_on_datastore or ""))
        else:
            raise UserErrorException(
                f"Dataset.File.from_files(path={item!r}): pass (datastore, 'path/**') tuples, e.g. "
                "(ws.get_default_datastore(), 'mnist/**').")
    return tuple(result)


class _FileFactory:
    """``Dataset.File``."""

    @staticmethod
    def from_files(path, validate=True, partition_format=None, is_file=False) -> FileDataset:
        return FileDataset(paths=_paths(path))


class Dataset:
    """v1 ``azureml.core.Dataset`` entry points."""

    File = _FileFactory

    @staticmethod
    def get_by_name(workspace, name, version="latest") -> FileDataset:
        """A registered dataset, referenced as a v2 data asset (``azureml:<name>:<version>``)."""
        if not name or not isinstance(name, str):
            raise UserErrorException(f"Dataset.get_by_name(name={name!r}): pass the registered dataset's name.")
        return FileDataset(name=name, version=None if version == "latest" else str(version), workspace=workspace)
