"""Shim for ``azureml.core.runconfig``: re-exports ``acpt_estimator.v1.core.runconfig``."""
from acpt_estimator.v1.core.runconfig import *  # noqa: F401,F403
from acpt_estimator.v1.core.runconfig import __all__, __dir__, __getattr__  # noqa: F401
