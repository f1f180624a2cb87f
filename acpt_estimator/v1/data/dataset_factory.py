"""v1 ``azureml.data.dataset_factory``: ``Dataset.File`` / ``Dataset.Tabular`` constructors and ``DataType``."""

from __future__ import annotations

from acpt_estimator.exceptions import UserErrorException
from acpt_estimator.paths import relative_parts
from acpt_estimator.v1._refusal import refused
from acpt_estimator.v1.data.dataset_type_definitions import CODECS, FileEncoding, PromoteHeadersBehavior
from acpt_estimator.v1.data.file_dataset import FileDataset
from acpt_estimator.v1.data.tabular_dataset import TabularDataset
from acpt_estimator._lazy import lazy_names

__all__ = ["DataType", "FileDatasetFactory", "TabularDatasetFactory"]

_HEADERS = {PromoteHeadersBehavior.NO_HEADERS: "no_header", PromoteHeadersBehavior.ONLY_FIRST_FILE_HAS_HEADERS:
            "from_first_file", PromoteHeadersBehavior.COMBINE_ALL_FILES_HEADERS: "all_files_different_headers",
            PromoteHeadersBehavior.ALL_FILES_HAVE_SAME_HEADERS: "all_files_same_headers"}


class DataType:
    """v1 column types for ``set_column_types={'col': DataType.to_float()}`` (v2 MLTable convert_column_types)."""

    def __init__(self, column_type, **options):
        self.column_type, self.options = column_type, options

    @staticmethod
    def to_string() -> "DataType":
        return DataType("string")

    @staticmethod
    def to_long() -> "DataType":
        return DataType("int")

    @staticmethod
    def to_float(decimal_mark=".") -> "DataType":
        if decimal_mark not in (".", ","):
            raise UserErrorException(f"DataType.to_float(decimal_mark={decimal_mark!r}): use '.' or ','.")
        return DataType("float", decimal_mark=decimal_mark)

    @staticmethod
    def to_bool(true_values=None, false_values=None, mismatch_as="error") -> "DataType":
        return DataType("boolean", true_values=list(true_values or ["True", "true", "1"]),
                        false_values=list(false_values or ["False", "false", "0"]))

    @staticmethod
    def to_datetime(formats=None) -> "DataType":
        formats = [formats] if isinstance(formats, str) else list(formats or [])
        return DataType({"datetime": {"formats": formats}})

    to_stream = refused("DataType.to_stream", "stream columns are a dataprep feature v2 does not have.",
                        "a FileDataset / v2 uri_folder input of the files")

    def __repr__(self) -> str:
        return f"DataType({self.column_type!r})"


def _paths(member: str, path) -> tuple:
    """v1 accepts (datastore, 'p'), [(datastore, 'p'), ...], DataPath / DataReference objects and http(s) URLs."""
    from acpt_estimator.datastore_paths import is_url
    from acpt_estimator.v1.core.datastore import Datastore

    items = path if isinstance(path, list) else [path]
    result = []
    for item in items:
        if isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], Datastore) and isinstance(item[1], str):
            result.append((item[0], item[1]))
        elif hasattr(item, "datastore") and hasattr(item, "path_on_datastore"):
            result.append((item.datastore, item.path_on_datastore or ""))
        elif is_url(item):
            result.append((None, item))  # a web file: read (or downloaded by the job) from its URL
        else:
            raise UserErrorException(
                f"{member}(path={item!r}): pass (datastore, 'path') tuples (globs allowed), a list of them, "
                "DataPath objects or http(s) URLs, e.g. path=(ws.get_default_datastore(), 'iris/*.csv').")
    if not result:
        raise UserErrorException(f"{member}(path=[]): pass at least one (datastore, 'path') tuple.")
    for datastore, text in result:
        if datastore is not None:  # both backends: a folder of the local store, a blob path in the cloud
            relative_parts(text, parameter=f"{member}(path=...)",
                           fix="Pass a path inside the datastore, e.g. path=(ds, 'iris/*.csv').")
    return tuple(result)


def _partitions(member: str, partition_format) -> list:
    """v1's partition_format as the MLTable step that adds its columns (checked here, applied on read)."""
    if partition_format is None:
        return []
    from acpt_estimator.job_runtime.acpt_datasets import partition_pattern

    try:
        if not isinstance(partition_format, str) or not partition_pattern(partition_format)[1]:
            raise ValueError("it names no {column}")
    except (ValueError, KeyError) as err:
        raise UserErrorException(
            f"{member}(partition_format={partition_format!r}): {err}. Use e.g. "
            "'/{Department}/{PartitionDate:yyyy/MM/dd}/data.csv' (matched against the end of each file's path).")
    return [{"extract_columns_from_partition_format": {"partition_format": partition_format}}]


def _column_types(member: str, set_column_types) -> list:
    steps = []
    for column, kind in (set_column_types or {}).items():
        if not isinstance(kind, DataType):
            raise UserErrorException(f"{member}(set_column_types={{{column!r}: {kind!r}}}): map each column to a "
                                     "DataType, e.g. {'age': DataType.to_long()}.")
        steps.append({"columns": [column], "column_type": kind.column_type, **kind.options})
    return [{"convert_column_types": steps}] if steps else []


def _tabular(member: str, path, validate: bool, reader: dict, set_column_types, partition_format=None):
    steps = [reader] + _partitions(member, partition_format) + _column_types(member, set_column_types)
    dataset = TabularDataset(paths=_paths(member, path), transformations=tuple(steps))
    if validate:
        from acpt_estimator.v1.data._files import list_files

        if not list_files(dataset.paths):
            raise UserErrorException(
                f"{member}: Cannot load any data from the specified path {[p for _, p in dataset.paths]}. Make sure "
                "the path is accessible and contains data (upload it first), or pass validate=False.")
    return dataset


def _encoding(member: str, encoding) -> str:
    if isinstance(encoding, FileEncoding):
        return CODECS[encoding]
    if isinstance(encoding, str):
        return encoding
    raise UserErrorException(f"{member}(encoding={encoding!r}): pass 'utf8', 'latin1', ... or a FileEncoding.")


class TabularDatasetFactory:
    """``Dataset.Tabular``: tabular datasets from files on a datastore."""

    @staticmethod
    def from_delimited_files(path, validate=True, include_path=False, infer_column_types=True, set_column_types=None,
                             separator=",", header=True, partition_format=None, support_multi_line=False,
                             empty_as_string=False, encoding="utf8") -> TabularDataset:
        member = "Dataset.Tabular.from_delimited_files"
        if isinstance(header, bool):
            header = PromoteHeadersBehavior.ALL_FILES_HAVE_SAME_HEADERS if header else PromoteHeadersBehavior.NO_HEADERS
        if header not in _HEADERS:
            raise UserErrorException(f"{member}(header={header!r}): pass True, False or a PromoteHeadersBehavior.")
        if not isinstance(separator, str) or not separator:
            raise UserErrorException(
                f"{member}(separator={separator!r}): pass the column separator, e.g. ',' or '\\t'.")
        reader = {"read_delimited": {"delimiter": separator, "header": _HEADERS[header],
                                     "encoding": _encoding(member, encoding), "include_path_column": bool(include_path),
                                     "infer_column_types": bool(infer_column_types),
                                     "empty_as_string": bool(empty_as_string),
                                     "support_multi_line": bool(support_multi_line)}}
        return _tabular(member, path, validate, reader, set_column_types, partition_format)

    @staticmethod
    def from_parquet_files(path, validate=True, include_path=False, set_column_types=None,
                           partition_format=None) -> TabularDataset:
        member = "Dataset.Tabular.from_parquet_files"
        reader = {"read_parquet": {"include_path_column": bool(include_path)}}
        return _tabular(member, path, validate, reader, set_column_types, partition_format)

    @staticmethod
    def from_json_lines_files(path, validate=True, include_path=False, set_column_types=None, partition_format=None,
                              invalid_lines="error", encoding="utf8") -> TabularDataset:
        member = "Dataset.Tabular.from_json_lines_files"
        if invalid_lines not in ("error", "drop"):
            raise UserErrorException(f"{member}(invalid_lines={invalid_lines!r}): use 'error' or 'drop'.")
        reader = {"read_json_lines": {"include_path_column": bool(include_path), "invalid_lines": invalid_lines,
                                      "encoding": _encoding(member, encoding)}}
        return _tabular(member, path, validate, reader, set_column_types, partition_format)

    from_sql_query = refused(
        "Dataset.Tabular.from_sql_query", "SQL datastores are not supported by v2 data assets.",
        "query the database in the job, or export the table to files and use from_delimited_files/MLTable")
    @staticmethod
    def register_pandas_dataframe(dataframe, target, name, description=None, tags=None, show_progress=True):
        """Write ``dataframe`` as parquet under a new folder of ``target=(datastore, 'path')``, then register it
        as tabular dataset ``name`` (a new version when the name exists)."""
        import tempfile
        import uuid

        member = "Dataset.Tabular.register_pandas_dataframe"
        if not hasattr(dataframe, "to_parquet"):
            raise UserErrorException(f"{member}(dataframe={type(dataframe).__name__}): pass a pandas DataFrame.")
        datastore, path = _paths(member, target)[0]
        folder = f"{path.strip('/')}/{uuid.uuid4()}" if path.strip("/") else str(uuid.uuid4())  # v1: a guid folder
        with tempfile.TemporaryDirectory(prefix="acpt-dataframe-") as scratch:
            dataframe.to_parquet(f"{scratch}/part-00000.parquet", index=False)
            datastore.upload(scratch, target_path=folder, show_progress=show_progress)
        dataset = TabularDatasetFactory.from_parquet_files((datastore, f"{folder}/*.parquet"), validate=False)
        return dataset.register(datastore.workspace, name, description, tags, create_new_version=True)

    register_spark_dataframe = refused(
        "Dataset.Tabular.register_spark_dataframe", "Spark runs only in v2 Spark jobs.",
        "a v2 Spark job writing a data asset (azure.ai.ml.spark)")
    register_dask_dataframe = refused(
        "Dataset.Tabular.register_dask_dataframe", "dask is not a dependency of this SDK.",
        "ddf.to_parquet(...), ds.upload(...), then Dataset.Tabular.from_parquet_files(...).register(ws, name)")


class FileDatasetFactory:
    """``Dataset.File``: file datasets from datastore paths."""

    @staticmethod
    def from_files(path, validate=True, partition_format=None, is_file=False) -> FileDataset:
        member = "Dataset.File.from_files"
        return FileDataset(paths=_paths(member, path), transformations=tuple(_partitions(member, partition_format)))

    @staticmethod
    def upload_directory(src_dir, target, pattern=None, overwrite=False, show_progress=True) -> FileDataset:
        """Upload a folder to ``target=(datastore, 'path')`` and return a dataset of its files."""
        import fnmatch
        import os

        datastore, path = _paths("Dataset.File.upload_directory", target)[0]
        if pattern is None:
            datastore.upload(src_dir, target_path=path, overwrite=overwrite, show_progress=show_progress)
        else:  # v1: only the files whose path matches the glob
            from acpt_estimator.backends.local.datastores import list_source_files

            files = [os.path.join(src_dir, f) for f in list_source_files(src_dir) if fnmatch.fnmatch(f, pattern)]
            datastore.upload_files(files, relative_root=src_dir, target_path=path, overwrite=overwrite,
                                   show_progress=show_progress)
        return FileDataset(paths=((datastore, f"{path.rstrip('/')}/**" if path else "**"),))


# v1 names this module also exported, defined elsewhere: resolved on first use (v1-importable.json).
__getattr__, __dir__ = lazy_names(__name__, {
    "UserErrorException": "acpt_estimator.exceptions",
    "AbstractDatastore": "acpt_estimator.v1.data.abstract_datastore",
    "AzurePostgreSqlDatastore": "acpt_estimator.v1.data.azure_postgre_sql_datastore",
    "DataReference": "acpt_estimator.v1.data.data_reference",
    "DataPath": "acpt_estimator.v1.data.datapath",
    "PromoteHeadersBehavior": "acpt_estimator.v1.data.dataset_type_definitions",
})
