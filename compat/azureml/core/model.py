"""Shim for ``azureml.core.model``."""
from acpt_estimator.model import Model  # noqa: F401
from acpt_estimator.unsupported import InferenceConfig  # noqa: F401
