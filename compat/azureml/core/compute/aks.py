"""Shim for ``azureml.core.compute.aks``: re-exports ``acpt_estimator.v1.core.compute.aks``."""
from acpt_estimator.v1.core.compute.aks import *  # noqa: F401,F403
from acpt_estimator.v1.core.compute.aks import __all__  # noqa: F401
