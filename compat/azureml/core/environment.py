"""Shim for ``azureml.core.environment``."""
from acpt_estimator.environment import CondaDependencies, Environment  # noqa: F401
