"""Shim for ``azureml.widgets``."""
from acpt_estimator.widgets import RunDetails  # noqa: F401
