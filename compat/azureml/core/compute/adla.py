"""Shim for ``azureml.core.compute.adla``: re-exports ``acpt_estimator.v1.core.compute.adla``."""
from acpt_estimator.v1.core.compute.adla import *  # noqa: F401,F403
from acpt_estimator.v1.core.compute.adla import __all__  # noqa: F401
