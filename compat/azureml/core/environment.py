"""Shim for ``azureml.core.environment``: re-exports ``acpt_estimator.v1.core.environment``."""
from acpt_estimator.v1.core.environment import *  # noqa: F401,F403
from acpt_estimator.v1.core.environment import __all__, __dir__, __getattr__  # noqa: F401
