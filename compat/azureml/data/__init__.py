"""Shim for ``azureml.data``."""
from acpt_estimator.data import DataReference, FileDataset  # noqa: F401
