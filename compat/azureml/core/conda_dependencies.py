"""Shim for ``azureml.core.conda_dependencies``."""
from acpt_estimator.v1.core.conda_dependencies import CondaDependencies  # noqa: F401
