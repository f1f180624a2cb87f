"""Shim for ``azureml.data.tabular_dataset``."""
from acpt_estimator.v1.data.tabular_dataset import TabularDataset  # noqa: F401
