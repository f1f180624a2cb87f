"""Shim for ``azureml.core.workspace``."""
from acpt_estimator.v1.core.workspace import Workspace  # noqa: F401
