"""Shim for ``azureml.core.webservice.aks``: re-exports ``acpt_estimator.v1.core.webservice.aks``."""
from acpt_estimator.v1.core.webservice.aks import *  # noqa: F401,F403
from acpt_estimator.v1.core.webservice.aks import __all__  # noqa: F401
