"""Shim for ``azureml.data.file_dataset``."""
from acpt_estimator.v1.data.file_dataset import FileDataset  # noqa: F401
