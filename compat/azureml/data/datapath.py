"""Shim for ``azureml.data.datapath``."""
from acpt_estimator.data import DataPath  # noqa: F401
