"""Shim for ``azureml.data.data_reference``."""
from acpt_estimator.data import DataReference  # noqa: F401
