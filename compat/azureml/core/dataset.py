"""Shim for ``azureml.core.dataset``."""
from acpt_estimator.v1.core.dataset import Dataset  # noqa: F401
