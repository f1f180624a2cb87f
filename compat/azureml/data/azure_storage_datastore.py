"""Shim for ``azureml.data.azure_storage_datastore``: re-exports ``acpt_estimator.v1.data.azure_storage_datastore``."""
from acpt_estimator.v1.data.azure_storage_datastore import *  # noqa: F401,F403
from acpt_estimator.v1.data.azure_storage_datastore import __all__, __dir__, __getattr__  # noqa: F401
