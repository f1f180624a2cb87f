"""Shim for ``azureml.widgets``."""
from acpt_estimator.v1.widgets import RunDetails  # noqa: F401
