"""Shim for ``azureml.core.dataset``."""
from acpt_estimator.dataset import Dataset  # noqa: F401
