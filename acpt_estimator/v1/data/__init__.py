"""v1 ``azureml.data``: dataset and datastore path objects."""

from acpt_estimator.v1.data.data_reference import DataReference
from acpt_estimator.v1.data.file_dataset import FileDataset

__all__ = ["DataReference", "FileDataset"]
