"""Shim for ``azureml.core.workspace``."""
from acpt_estimator.workspace import Workspace  # noqa: F401
