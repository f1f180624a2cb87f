"""Shim for ``azureml.core.compute_target``: re-exports ``acpt_estimator.v1.core.compute_target``."""
from acpt_estimator.v1.core.compute_target import *  # noqa: F401,F403
from acpt_estimator.v1.core.compute_target import __all__, __dir__, __getattr__  # noqa: F401
