"""Shim for ``azureml.core.model``."""
from acpt_estimator.model import Model  # noqa: F401
