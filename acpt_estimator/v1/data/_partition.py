"""v1 ``TabularDataset.partition_by``: a partitioned parquet copy under ``target``, read back as a dataset whose
partition keys come from the folders (v1's layout: ``<target>/<guid>/<key value>/.../part-00000.parquet``)."""

from __future__ import annotations

import os
import tempfile
import uuid

from acpt_estimator.exceptions import UserErrorException

_MEMBER = "TabularDataset.partition_by"
_DATE_FORMAT = ("yyyyMMddHHmmss", "%Y%m%d%H%M%S")  # how v1 wrote date keys into folder names


def _target(target):
    """(datastore, path) of a DataPath, a Datastore or a (Datastore, path) tuple."""
    from acpt_estimator.v1.core.datastore import Datastore
    from acpt_estimator.v1.data.dataset_factory import _paths

    if isinstance(target, Datastore):
        return target, ""
    return _paths(_MEMBER, target)[0]


def _check_keys(partition_keys, columns) -> list:
    keys = [partition_keys] if isinstance(partition_keys, str) else partition_keys
    if not isinstance(keys, (list, tuple)) or not keys or not all(isinstance(k, str) for k in keys):
        raise UserErrorException(f"{_MEMBER}(partition_keys={partition_keys!r}): partition_keys cannot be empty; "
                                 "pass a list of column names, e.g. ['Store', 'Brand'].")
    invalid = [k for k in keys if k not in columns]
    if invalid:
        raise UserErrorException(f"{_MEMBER}: {invalid} are invalid partition keys; the columns are {list(columns)}.")
    if len(keys) != len(set(keys)):
        raise UserErrorException(f"{_MEMBER}(partition_keys={keys!r}): partition_keys cannot have duplicates.")
    return list(keys)


def _segment(key: str, value, is_date: bool) -> str:
    text = value.strftime(_DATE_FORMAT[1]) if is_date else str(value)
    if not text or text in (".", "..") or "/" in text or "\0" in text or "{" in text or "}" in text:
        raise UserErrorException(f"{_MEMBER}: partition key {key!r} has the value {value!r}, which cannot be a "
                                 "folder name. Clean the column (or partition by another one) first.")
    return text


def _column_type(series):
    """The DataType that restores a key's type on read (v1 kept the key columns' types)."""
    from acpt_estimator.v1.data.dataset_factory import DataType

    kind = series.dtype.kind
    return {"i": DataType.to_long(), "u": DataType.to_long(), "f": DataType.to_float(),
            "b": DataType.to_bool()}.get(kind)


def partition_by(dataset, partition_keys, target, name=None, show_progress=True, partition_as_file_dataset=False):
    from acpt_estimator.v1.data.dataset_factory import FileDatasetFactory, TabularDatasetFactory

    frame = dataset.to_pandas_dataframe()
    keys = _check_keys(partition_keys, frame.columns)
    datastore, path = _target(target)
    folder = f"{path.strip('/')}/{uuid.uuid4()}" if path.strip("/") else str(uuid.uuid4())  # v1: a guid folder
    dates = {k: frame[k].dtype.kind == "M" for k in keys}
    partition_format = f"/{folder}/" + "".join(
        f"{{{k}:{_DATE_FORMAT[0]}}}*/" if dates[k] else f"{{{k}}}/" for k in keys) + "*.parquet"
    glob = f"{folder}/" + "*/" * len(keys) + "*.parquet"
    types = {k: t for k in keys if not dates[k] and (t := _column_type(frame[k])) is not None}
    with tempfile.TemporaryDirectory(prefix="acpt-partition-") as scratch:
        for values, part in frame.groupby(keys, sort=False, dropna=False):
            values = values if isinstance(values, tuple) else (values,)
            sub = "/".join(_segment(k, v, dates[k]) for k, v in zip(keys, values))
            os.makedirs(f"{scratch}/{sub}", exist_ok=True)
            # the key columns live in the folder names only: read back, they come last (as v1's did)
            part.drop(columns=keys).to_parquet(f"{scratch}/{sub}/part-00000.parquet", index=False)
        datastore.upload(scratch, target_path=folder, show_progress=show_progress)
    if partition_as_file_dataset:
        result = FileDatasetFactory.from_files((datastore, glob), partition_format=partition_format)
    else:
        result = TabularDatasetFactory.from_parquet_files((datastore, glob), validate=False, set_column_types=types,
                                                          partition_format=partition_format)
    result.workspace = datastore.workspace
    if name is None:
        return result
    return result.register(datastore.workspace, name, create_new_version=True)
