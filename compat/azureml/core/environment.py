"""Shim for ``azureml.core.environment``."""
from acpt_estimator.v1.core.environment import CondaDependencies, Environment  # noqa: F401
