"""Shim for ``azureml.core.environment``."""
from acpt_estimator.v1.core.environment import *  # noqa: F401,F403
from acpt_estimator.v1.core.environment import __all__  # noqa: F401
