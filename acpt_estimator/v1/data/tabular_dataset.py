"""v1 ``azureml.data.tabular_dataset``: rows read from delimited, parquet or JSON-lines files (pandas)."""

from __future__ import annotations

import datetime

from acpt_estimator.exceptions import UserErrorException
from acpt_estimator.v1 import _params
from acpt_estimator.v1._refusal import refused
from acpt_estimator.v1.data.abstract_dataset import AbstractDataset
from acpt_estimator._lazy import lazy_names

_PANDAS = "the pandas DataFrame of dataset.to_pandas_dataframe()"
_NO_PROFILE = ("dataset profiles were computed by v1's profiling runs, which v2 dropped.",
               f"{_PANDAS}.describe(), or the data asset's page in Azure ML studio")
_NO_STREAM = ("stream columns (files named by a column) are a dataprep feature v2 does not have.",
              "a FileDataset / v2 uri_folder input of the files themselves")


class TabularDataset(AbstractDataset):
    """v1 ``TabularDataset``: rows read from files on a datastore, with v1's lazy steps (take, skip, ...)."""

    _kind = "tabular"

    def to_pandas_dataframe(self, on_error="null", out_of_range_datetime="null"):
        """Read every file of the dataset (downloaded first for cloud datastores) into one DataFrame."""
        _params.check("TabularDataset.to_pandas_dataframe", on_error=on_error,
                      out_of_range_datetime=out_of_range_datetime)
        from acpt_estimator.job_runtime.acpt_datasets import read_table
        from acpt_estimator.v1.data._files import fetch, full_path, list_files

        entries = list_files(self.paths)
        files = [(path, rel, full_path(source, self.input_root))
                 for (path, rel), (source, _) in zip(fetch(entries), entries)]
        try:
            return read_table(self._definition(), files)
        except ValueError as err:  # pandas' parse errors, a missing timestamp column
            raise UserErrorException(
                f"to_pandas_dataframe() could not read {[p for _, p in self.paths]}: {str(err).splitlines()[0]} "
                "Check the files and the dataset's read options (separator, header, set_column_types).") from None

    def keep_columns(self, columns, validate=False):
        _params.check("TabularDataset.keep_columns", validate=validate)
        return self._step({"keep_columns": _columns("keep_columns", columns)})

    def drop_columns(self, columns):
        return self._step({"drop_columns": _columns("drop_columns", columns)})

    @property
    def timestamp_columns(self) -> tuple:
        """(timestamp, partition_timestamp) set by with_timestamp_columns; (None, None) otherwise."""
        for step in reversed(self.transformations):
            if "timestamp_columns" in step:
                return step["timestamp_columns"]["timestamp"], step["timestamp_columns"]["partition_timestamp"]
        return (None, None)

    def with_timestamp_columns(self, timestamp=None, partition_timestamp=None, validate=False, **kwargs):
        """Name the time columns the time_* filters use (both None: forget them)."""
        _params.check("TabularDataset.with_timestamp_columns", validate=validate)
        for param, value in (("timestamp", timestamp), ("partition_timestamp", partition_timestamp)):
            if value is not None and not isinstance(value, str):
                raise UserErrorException(f"with_timestamp_columns({param}={value!r}): pass a column name.")
        return self._step({"timestamp_columns": {"timestamp": timestamp, "partition_timestamp": partition_timestamp}})

    def _time(self, member: str, start=None, end=None, include_boundary=True):
        column = self.timestamp_columns[0] or self.timestamp_columns[1]
        if column is None:
            raise UserErrorException(f"{member}: this dataset has no timestamp column. Call "
                                     "dataset.with_timestamp_columns(timestamp='<column>') first.")
        bounds = {}
        for param, value in (("start", start), ("end", end)):
            if value is not None and not isinstance(value, (datetime.datetime, datetime.date)):
                raise UserErrorException(f"{member}: pass a datetime for the {param} time, not {value!r}.")
            bounds[param] = value.isoformat() if value is not None else None
        return self._step({"time_filter": {"column": column, "include_boundary": bool(include_boundary), **bounds}})

    def time_after(self, start_time, include_boundary=True, validate=True):
        _params.check("TabularDataset.time_after", validate=validate)
        return self._time("time_after", start=start_time, include_boundary=include_boundary)

    def time_before(self, end_time, include_boundary=True, validate=True):
        _params.check("TabularDataset.time_before", validate=validate)
        return self._time("time_before", end=end_time, include_boundary=include_boundary)

    def time_between(self, start_time, end_time, include_boundary=True, validate=True):
        _params.check("TabularDataset.time_between", validate=validate)
        return self._time("time_between", start_time, end_time, include_boundary)

    def time_recent(self, time_delta, include_boundary=True, validate=True):
        """Rows of the last ``time_delta`` (a datetime.timedelta) before now."""
        _params.check("TabularDataset.time_recent", validate=validate)
        if not isinstance(time_delta, datetime.timedelta):
            raise UserErrorException(f"time_recent(time_delta={time_delta!r}): pass a datetime.timedelta.")
        return self._time("time_recent", start=datetime.datetime.now() - time_delta, include_boundary=include_boundary)

    get_profile = refused("TabularDataset.get_profile", *_NO_PROFILE)
    get_profile_runs = refused("TabularDataset.get_profile_runs", *_NO_PROFILE)
    submit_profile_run = refused("TabularDataset.submit_profile_run", *_NO_PROFILE)
    download = refused("TabularDataset.download", *_NO_STREAM)
    mount = refused("TabularDataset.mount", *_NO_STREAM)

    def partition_by(self, partition_keys, target, name=None, show_progress=True, partition_as_file_dataset=False):
        """A copy of the rows partitioned by ``partition_keys`` as parquet under ``target`` (a DataPath, a
        Datastore or (datastore, 'path')), returned as a dataset with those partition_keys; registered as ``name``
        (a new version) when given."""
        from acpt_estimator.v1.data._partition import partition_by

        return partition_by(self, partition_keys, target, name, show_progress, partition_as_file_dataset)

    def to_csv_files(self, separator=","):
        """The rows as CSV files in a new local folder, as a FileDataset (v1 converted into a temporary place)."""
        return self._converted("to_csv_files", lambda df, folder: df.to_csv(f"{folder}/part-00000.csv",
                                                                            sep=separator, index=False))

    def to_parquet_files(self):
        """The rows as parquet files in a new local folder, as a FileDataset."""
        return self._converted("to_parquet_files", lambda df, folder: df.to_parquet(f"{folder}/part-00000.parquet",
                                                                                   index=False))

    def _converted(self, member: str, write):
        import tempfile

        from acpt_estimator.v1.data.file_dataset import FileDataset

        folder = tempfile.mkdtemp(prefix=f"acpt-{member.replace('_', '-')}-")
        write(self.to_pandas_dataframe(), folder)
        return FileDataset(paths=((None, folder + "/"),), workspace=self.workspace)

    to_dask_dataframe = refused("TabularDataset.to_dask_dataframe", "dask is not a dependency of this SDK.",
                                f"dask.dataframe.from_pandas({_PANDAS}, npartitions=N)")
    to_spark_dataframe = refused("TabularDataset.to_spark_dataframe", "Spark runs only in v2 Spark jobs.",
                                 "a v2 Spark job (azure.ai.ml.spark) reading the data asset")


def _columns(member: str, columns) -> list:
    items = [columns] if isinstance(columns, str) else list(columns) if isinstance(columns, (list, tuple)) else None
    if not items or not all(isinstance(c, str) for c in items):
        raise UserErrorException(f"{member}(columns={columns!r}): pass a column name or a list of names.")
    return items


# v1 names this module also exported, defined elsewhere: resolved on first use (v1-importable.json).
__getattr__, __dir__ = lazy_names(__name__, {
    **dict.fromkeys(["DatasetTimestampMissingError", "UserErrorException"], "acpt_estimator.exceptions"),
    "AbstractDataset": "acpt_estimator.v1.data.abstract_dataset",
    "FileDataset": "acpt_estimator.v1.data.file_dataset",
})
