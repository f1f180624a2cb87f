"""Shim for ``azureml.core.model``."""
from acpt_estimator.v1.core.model import InferenceConfig, Model  # noqa: F401
