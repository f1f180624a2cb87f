"""Shim for ``azureml.data.data_reference``."""
from acpt_estimator.v1.data.data_reference import DataReference  # noqa: F401
