"""v1 ``azureml.core.dataset``: ``Dataset.File`` / ``Dataset.Tabular``, registry look-ups, and the pre-1.0.69 API."""

from __future__ import annotations

import logging

from acpt_estimator.exceptions import UserErrorException
from acpt_estimator.v1._refusal import refused
from acpt_estimator.v1.data.abstract_dataset import AbstractDataset
from acpt_estimator.v1.data.dataset_factory import FileDatasetFactory, TabularDatasetFactory
from acpt_estimator._lazy import lazy_names

logger = logging.getLogger(__name__)
_LEGACY_PROFILE = ("dataset profiles and snapshots were computed by v1 services that v2 dropped.",
                   "dataset.to_pandas_dataframe().describe(), or data asset versions in v2 (ml_client.data)")
_LEGACY_STATE = ("v1 dataset states (active/deprecated/archived) map to v2 archiving only.",
                 "ml_client.data.archive(name, version) / ml_client.data.restore(name, version)")


def _legacy(member: str, factory, *args, **kwargs) -> "Dataset":
    logger.warning('"Dataset.%s" is deprecated after version 1.0.69. Please use "Dataset.Tabular.%s" or '
                   '"Dataset.File.from_files" instead. See Dataset API change notice at '
                   "https://aka.ms/dataset-deprecation.", member, member)
    return Dataset(factory(*args, **kwargs))


class Dataset:
    """v1 ``azureml.core.Dataset``: the factories and look-ups; an instance is a pre-1.0.69 dataset object."""

    File = FileDatasetFactory
    Tabular = TabularDatasetFactory

    class Scenario:
        """v1's scenario names for ``get_profile``/``compare_profiles`` (kept so the constants import)."""

        TRAINING = "training"
        INFERENCE = "inference"

    def __init__(self, definition, workspace=None, name=None, id=None):
        if not isinstance(definition, AbstractDataset):
            raise UserErrorException(
                f"Dataset(definition={type(definition).__name__}): pass a dataset made by Dataset.Tabular.* or "
                "Dataset.File.from_files; v1 dataprep definitions do not exist here.")
        self._dataset = definition
        self._workspace, self._name, self._id = workspace, name, id

    # ---- look-ups: new API objects -------------------------------------------------------------------------
    @staticmethod
    def get_by_name(workspace, name, version="latest", **kwargs):
        """A registered dataset (a FileDataset or TabularDataset), latest version by default."""
        return AbstractDataset.get_by_name(workspace, name, version)

    @staticmethod
    def get_by_id(workspace, id, **kwargs):
        """A registered dataset by its id; inside a job also the dataset input given as an argument."""
        return AbstractDataset.get_by_id(workspace, id)

    @staticmethod
    def get(workspace, name=None, id=None):
        """Pre-1.0.69 look-up by name or id."""
        if (name is None) == (id is None):
            raise UserErrorException("Dataset.get(workspace, name=None, id=None): pass exactly one of name and id.")
        return AbstractDataset.get_by_name(workspace, name) if name else AbstractDataset.get_by_id(workspace, id)

    @staticmethod
    def get_all(workspace) -> dict:
        return AbstractDataset.get_all(workspace)

    @staticmethod
    def list(workspace) -> list:
        return list(AbstractDataset.get_all(workspace).values())

    # ---- pre-1.0.69 constructors: the same datasets, with v1's deprecation line ----------------------------
    @staticmethod
    def from_delimited_files(path, separator=",", header=True, encoding="utf8", quoting=False,
                             infer_column_types=True, skip_rows=0, skip_mode=None, comment=None, include_path=False,
                             archive_options=None, partition_format=None):
        from acpt_estimator.v1 import _params

        _params.check("Dataset.from_delimited_files", quoting=quoting, skip_rows=skip_rows, skip_mode=skip_mode,
                      comment=comment, archive_options=archive_options)
        return _legacy("from_delimited_files", TabularDatasetFactory.from_delimited_files, path,
                       separator=separator, header=header, encoding=encoding, include_path=include_path,
                       infer_column_types=infer_column_types, partition_format=partition_format)

    @staticmethod
    def from_parquet_files(path, include_path=False, partition_format=None):
        return _legacy("from_parquet_files", TabularDatasetFactory.from_parquet_files, path,
                       include_path=include_path, partition_format=partition_format)

    @staticmethod
    def from_json_files(path, encoding="utf8", flatten_nested_arrays=False, include_path=False,
                        partition_format=None):
        from acpt_estimator.v1 import _params

        _params.check("Dataset.from_json_files", flatten_nested_arrays=flatten_nested_arrays)
        return _legacy("from_json_files", TabularDatasetFactory.from_json_lines_files, path, encoding=encoding,
                       include_path=include_path, partition_format=partition_format)

    @staticmethod
    def from_binary_files(path):
        return _legacy("from_binary_files", FileDatasetFactory.from_files, path)

    auto_read_files = refused("Dataset.auto_read_files", "format sniffing was a dataprep feature.",
                              "Dataset.Tabular.from_delimited_files / from_parquet_files")
    from_excel_files = refused("Dataset.from_excel_files", "v2 data assets read no Excel files.",
                               "pandas.read_excel on the downloaded file (FileDataset.download)")
    from_sql_query = refused("Dataset.from_sql_query", "SQL datastores are not v2 data assets.",
                             "query the database in the job")
    from_pandas_dataframe = refused(
        "Dataset.from_pandas_dataframe", "it wrote through dataprep.",
        "df.to_parquet(...), ds.upload(...), then Dataset.Tabular.from_parquet_files(...)")

    # ---- a pre-1.0.69 dataset object: the new API dataset underneath ------------------------------------------
    @property
    def definition(self):
        return self._dataset

    definition_version = property(lambda self: self._dataset.version)
    name = property(lambda self: self._name or self._dataset.name)
    id = property(lambda self: self._id or self._dataset.id)
    workspace = property(lambda self: self._workspace or self._dataset.workspace)
    description = property(lambda self: self._dataset.description)
    tags = property(lambda self: self._dataset.tags)
    is_visible = property(lambda self: True)
    state = property(lambda self: "active")

    def to_pandas_dataframe(self):
        if not hasattr(self._dataset, "to_pandas_dataframe"):
            raise UserErrorException("to_pandas_dataframe() reads tabular datasets; this one holds files. Use "
                                     "Dataset.Tabular.from_delimited_files(...) or dataset.definition.download().")
        return self._dataset.to_pandas_dataframe()

    def head(self, count):
        """The first ``count`` rows as a DataFrame."""
        return Dataset(self._dataset.take(count)).to_pandas_dataframe()

    def sample(self, sample_strategy, arguments):
        if sample_strategy != "simple_random" or "probability" not in (arguments or {}):
            raise UserErrorException(f"Dataset.sample({sample_strategy!r}, {arguments!r}): 'simple_random' with "
                                     "{'probability': p, 'seed': s} is supported (v1's other strategies were "
                                     "dataprep's).")
        return Dataset(self._dataset.take_sample(arguments["probability"], arguments.get("seed")))

    def register(self, workspace, name, description=None, tags=None, visible=True, exist_ok=False,
                 update_if_exist=False):
        from acpt_estimator.v1 import _params

        _params.check("Dataset.register (deprecated)", visible=visible, exist_ok=exist_ok)
        return Dataset(self._dataset.register(workspace, name, description, tags,
                                              create_new_version=update_if_exist))

    def update(self, name=None, description=None, tags=None, visible=None):
        from acpt_estimator.v1 import _params

        _params.check("Dataset.update (deprecated)", visible=visible)
        if name is not None and name != self.name:
            raise UserErrorException("Dataset.update(name=...): renaming is not supported by v2 data assets; "
                                     "register the dataset under the new name.")
        return Dataset(self._dataset.update(description, tags))

    def get_definition(self, version_id=None):
        return self._dataset if version_id in (None, self._dataset.version) else \
            AbstractDataset.get_by_name(self.workspace, self.name, version_id)

    def get_definitions(self) -> dict:
        return {self._dataset.version: self._dataset}

    update_definition = refused("Dataset.update_definition", "a registered version is immutable in v2.",
                                "dataset.register(ws, name, create_new_version=True) with the new definition")
    to_spark_dataframe = refused("Dataset.to_spark_dataframe", "Spark runs only in v2 Spark jobs.",
                                 "a v2 Spark job (azure.ai.ml.spark) reading the data asset")
    archive = refused("Dataset.archive", *_LEGACY_STATE)
    deprecate = refused("Dataset.deprecate", *_LEGACY_STATE)
    reactivate = refused("Dataset.reactivate", *_LEGACY_STATE)
    generate_profile = refused("Dataset.generate_profile", *_LEGACY_PROFILE)
    get_profile = refused("Dataset.get_profile", *_LEGACY_PROFILE)
    compare_profiles = refused("Dataset.compare_profiles", *_LEGACY_PROFILE)
    diff = refused("Dataset.diff", *_LEGACY_PROFILE)
    create_snapshot = refused("Dataset.create_snapshot", *_LEGACY_PROFILE)
    delete_snapshot = refused("Dataset.delete_snapshot", *_LEGACY_PROFILE)
    get_snapshot = refused("Dataset.get_snapshot", *_LEGACY_PROFILE)
    get_all_snapshots = refused("Dataset.get_all_snapshots", *_LEGACY_PROFILE)

    def __repr__(self) -> str:
        return repr(self._dataset)


# v1 names this module also exported, defined elsewhere: resolved on first use (v1-importable.json).
__getattr__, __dir__ = lazy_names(__name__, {
    **dict.fromkeys(["FileEncoding", "HistogramCompareMethod", "PromoteHeadersBehavior", "SkipLinesBehavior"],
        "acpt_estimator.v1.data.dataset_type_definitions"),
})
