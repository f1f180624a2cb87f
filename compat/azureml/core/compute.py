"""Shim for ``azureml.core.compute``."""
from acpt_estimator.compute import AmlCompute, ComputeTarget  # noqa: F401
