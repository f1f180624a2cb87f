"""Shim for ``azureml.core.authentication``: re-exports ``acpt_estimator.v1.core.authentication``."""
from acpt_estimator.v1.core.authentication import *  # noqa: F401,F403
from acpt_estimator.v1.core.authentication import __all__, __dir__, __getattr__  # noqa: F401
