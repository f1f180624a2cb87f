"""Shim for ``azureml.core.conda_dependencies``."""
from acpt_estimator.environment import CondaDependencies  # noqa: F401
