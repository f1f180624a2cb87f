"""Shim for ``azureml.core.model``: re-exports ``acpt_estimator.v1.core.model``."""
from acpt_estimator.v1.core.model import *  # noqa: F401,F403
from acpt_estimator.v1.core.model import __all__, __dir__, __getattr__  # noqa: F401
