"""Shim for ``azureml.core.compute.compute``: re-exports ``acpt_estimator.v1.core.compute.compute``."""
from acpt_estimator.v1.core.compute.compute import *  # noqa: F401,F403
from acpt_estimator.v1.core.compute.compute import __all__, __dir__, __getattr__  # noqa: F401
