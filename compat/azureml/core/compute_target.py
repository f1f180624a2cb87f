"""Shim for ``azureml.core.compute_target``."""
from acpt_estimator.exceptions import ComputeTargetException  # noqa: F401
