"""Shim for ``azureml.core.container_registry``: re-exports ``acpt_estimator.v1.core.container_registry``."""
from acpt_estimator.v1.core.container_registry import *  # noqa: F401,F403
