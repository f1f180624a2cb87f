"""v1 ``azureml.data``: dataset, data path and output dataset objects."""

from acpt_estimator.v1.data.data_reference import DataReference
from acpt_estimator.v1.data.datacache import DatacacheStore
from acpt_estimator.v1.data.dataset_factory import DataType
from acpt_estimator.v1.data.file_dataset import FileDataset
from acpt_estimator.v1.data.output_dataset_config import (
    HDFSOutputDatasetConfig, LinkFileOutputDatasetConfig, LinkTabularOutputDatasetConfig, OutputFileDatasetConfig)
from acpt_estimator.v1.data.tabular_dataset import TabularDataset

__all__ = ["DataReference", "DataType", "DatacacheStore", "FileDataset", "HDFSOutputDatasetConfig",
           "LinkFileOutputDatasetConfig", "LinkTabularOutputDatasetConfig", "OutputFileDatasetConfig", "TabularDataset"]
