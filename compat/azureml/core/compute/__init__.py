"""Shim for ``azureml.core.compute``: re-exports ``acpt_estimator.v1.core.compute``."""
from acpt_estimator.v1.core.compute import *  # noqa: F401,F403
from acpt_estimator.v1.core.compute import __all__  # noqa: F401
