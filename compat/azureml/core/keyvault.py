"""Shim for ``azureml.core.keyvault``: re-exports ``acpt_estimator.v1.core.keyvault``."""
from acpt_estimator.v1.core.keyvault import *  # noqa: F401,F403
from acpt_estimator.v1.core.keyvault import __all__  # noqa: F401
