"""Shim for ``azureml.data.datapath``."""
from acpt_estimator.v1.data.datapath import DataPath, DataPathComputeBinding  # noqa: F401
