"""v1 ``Dataset``: file datasets made from datastore paths, or referenced by registered name."""

from __future__ import annotations

from acpt_estimator.v1.core.datastore import Datastore
from acpt_estimator.v1.data.file_dataset import FileDataset
from acpt_estimator.datastore_paths import is_local_workspace
from acpt_estimator.exceptions import UserErrorException


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

    @staticmethod
    def upload_directory(src_dir, target, pattern=None, overwrite=False, show_progress=True) -> FileDataset:
        """Upload a folder to ``target=(datastore, 'path')`` and return a dataset of its files."""
        datastore, path = _paths(target)[0]
        datastore.upload(src_dir, target_path=path, overwrite=overwrite, show_progress=show_progress)
        return FileDataset(paths=((datastore, f"{path.rstrip('/')}/**" if path else "**"),))


class Dataset:
    """v1 ``azureml.core.Dataset`` entry points."""

    File = _FileFactory

    @staticmethod
    def get_by_name(workspace, name, version="latest") -> FileDataset:
        """A registered dataset (latest version by default); a missing name is an error naming it."""
        if not name or not isinstance(name, str):
            raise UserErrorException(f"Dataset.get_by_name(name={name!r}): pass the registered dataset's name.")
        if is_local_workspace(workspace):
            from acpt_estimator.backends.local import datastores

            record = datastores.get(name, version)
            paths = tuple((Datastore(workspace, d), p) for d, p in record["paths"])
            return FileDataset(paths=paths, name=name, version=str(record["version"]), workspace=workspace)
        from acpt_estimator.backends.azureml import data_ops
        from acpt_estimator.datastore_paths import parse_datastore_uri

        found_version, uri = data_ops.get_dataset(workspace, name, version)
        parsed = parse_datastore_uri(uri)
        paths = ((Datastore(workspace, parsed[0]), parsed[1]),) if parsed else ()
        return FileDataset(paths=paths, name=name, version=found_version, workspace=workspace)
