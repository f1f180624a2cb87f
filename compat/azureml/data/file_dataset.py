"""Shim for ``azureml.data.file_dataset``."""
from acpt_estimator.data import FileDataset  # noqa: F401
