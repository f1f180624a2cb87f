"""v1 ``azureml.data.dataset_consumption_config``: how a job consumes a dataset."""

from __future__ import annotations

import attrs

from acpt_estimator.datastore_paths import check_input_name
from acpt_estimator.exceptions import UserErrorException
from acpt_estimator.v1._refusal import refused
from acpt_estimator._lazy import lazy_names


@attrs.define(eq=False)
class DatasetConsumptionConfig:
    """v1: how a job consumes a dataset (``dataset.as_named_input('x').as_mount()``)."""

    name: str
    dataset: "FileDataset"
    mode: str = "direct"
    path_on_compute: str | None = None
    source_output: object = None  # OutputFileDatasetConfig.as_input(): the output it reads (pipelines link to it)

    def __attrs_post_init__(self):
        check_input_name(self.name)

    def _files_only(self, mode: str) -> None:
        if getattr(self.dataset, "_kind", "file") == "tabular":
            raise UserErrorException(
                f"as_{mode}() is for file datasets; a TabularDataset is consumed directly: pass "
                f"dataset.as_named_input({self.name!r}) and read "
                f"run.input_datasets[{self.name!r}].to_pandas_dataframe().")

    def as_mount(self, path_on_compute=None) -> "DatasetConsumptionConfig":
        self._files_only("mount")
        return attrs.evolve(self, mode="mount", path_on_compute=path_on_compute)

    def as_download(self, path_on_compute=None) -> "DatasetConsumptionConfig":
        self._files_only("download")
        return attrs.evolve(self, mode="download", path_on_compute=path_on_compute)

    def to_input_spec(self):
        """The engine's DataInput: the dataset's folder (or data asset) with its definition for the job."""
        from acpt_estimator.v1.data._specs import dataset_input

        return dataset_input(self)

    as_hdfs = refused("DatasetConsumptionConfig.as_hdfs", "HDFS inputs exist only on v1 Synapse Spark pools.",
                      "a v2 Spark job (azure.ai.ml.spark) with the data asset as an input")

    def __str__(self) -> str:
        return f"DatasetConsumptionConfig:{self.name}"


# v1 names this module also exported, defined elsewhere: resolved on first use (v1-importable.json).
__getattr__, __dir__ = lazy_names(__name__, {
    **dict.fromkeys(["DIRECT_MODE", "DOWNLOAD_MODE", "HDFS_MODE", "MOUNT_MODE"], "acpt_estimator.v1.data.constants"),
})
