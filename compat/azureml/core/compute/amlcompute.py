"""Shim for ``azureml.core.compute.amlcompute``: re-exports ``acpt_estimator.v1.core.compute.amlcompute``."""
from acpt_estimator.v1.core.compute.amlcompute import *  # noqa: F401,F403
from acpt_estimator.v1.core.compute.amlcompute import __all__, __dir__, __getattr__  # noqa: F401
