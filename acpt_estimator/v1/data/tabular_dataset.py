"""v1 ``azureml.data.tabular_dataset``: rows read from delimited, parquet or JSON-lines files (pandas)."""

from __future__ import annotations

from acpt_estimator.exceptions import UserErrorException
from acpt_estimator.v1._refusal import refused
from acpt_estimator.v1.data.abstract_dataset import AbstractDataset

_PANDAS = "the pandas DataFrame of dataset.to_pandas_dataframe()"
_NO_TIME = ("v1's time-series filters run on the dataprep engine, which v2 does not have.",
            f"filter {_PANDAS} on the timestamp column (df[df['ts'] > start])")
_NO_PROFILE = ("dataset profiles were computed by v1's profiling runs, which v2 dropped.",
               f"{_PANDAS}.describe(), or the data asset's page in Azure ML studio")
_NO_STREAM = ("stream columns (files named by a column) are a dataprep feature v2 does not have.",
              "a FileDataset / v2 uri_folder input of the files themselves")


class TabularDataset(AbstractDataset):
    """v1 ``TabularDataset``: rows read from files on a datastore, with v1's lazy steps (take, skip, ...)."""

    _kind = "tabular"

    def to_pandas_dataframe(self, on_error="null", out_of_range_datetime="null"):
        """Read every file of the dataset (downloaded first for cloud datastores) into one DataFrame."""
        from acpt_estimator.job_runtime.acpt_datasets import read_table
        from acpt_estimator.v1.data._files import fetch, list_files

        return read_table(self._definition(), fetch(list_files(self.paths)))

    def keep_columns(self, columns, validate=False):
        return self._step({"keep_columns": _columns("keep_columns", columns)})

    def drop_columns(self, columns):
        return self._step({"drop_columns": _columns("drop_columns", columns)})

    @property
    def timestamp_columns(self) -> tuple:
        return (None, None)  # with_timestamp_columns is refused, so no dataset here has them

    with_timestamp_columns = refused("TabularDataset.with_timestamp_columns", *_NO_TIME)
    time_after = refused("TabularDataset.time_after", *_NO_TIME)
    time_before = refused("TabularDataset.time_before", *_NO_TIME)
    time_between = refused("TabularDataset.time_between", *_NO_TIME)
    time_recent = refused("TabularDataset.time_recent", *_NO_TIME)
    get_profile = refused("TabularDataset.get_profile", *_NO_PROFILE)
    get_profile_runs = refused("TabularDataset.get_profile_runs", *_NO_PROFILE)
    submit_profile_run = refused("TabularDataset.submit_profile_run", *_NO_PROFILE)
    download = refused("TabularDataset.download", *_NO_STREAM)
    mount = refused("TabularDataset.mount", *_NO_STREAM)
    partition_by = refused("TabularDataset.partition_by", "partitioned copies are written by dataprep, which v2 "
                           "does not have.", f"{_PANDAS}.to_parquet(path, partition_cols=[...]) then "
                           "ds.upload(...) and Dataset.Tabular.from_parquet_files")
    to_csv_files = refused("TabularDataset.to_csv_files", "v1 converted the rows with dataprep.",
                           f"{_PANDAS}.to_csv(path), then upload the folder")
    to_parquet_files = refused("TabularDataset.to_parquet_files", "v1 converted the rows with dataprep.",
                               f"{_PANDAS}.to_parquet(path), then upload the folder")
    to_dask_dataframe = refused("TabularDataset.to_dask_dataframe", "dask is not a dependency of this SDK.",
                                f"dask.dataframe.from_pandas({_PANDAS}, npartitions=N)")
    to_spark_dataframe = refused("TabularDataset.to_spark_dataframe", "Spark runs only in v2 Spark jobs.",
                                 "a v2 Spark job (azure.ai.ml.spark) reading the data asset")


def _columns(member: str, columns) -> list:
    items = [columns] if isinstance(columns, str) else list(columns) if isinstance(columns, (list, tuple)) else None
    if not items or not all(isinstance(c, str) for c in items):
        raise UserErrorException(f"{member}(columns={columns!r}): pass a column name or a list of names.")
    return items
