"""Shim for ``azureml.data.azure_storage_datastore``: re-exports the same path under acpt_estimator.v1."""
from acpt_estimator.v1.data.azure_storage_datastore import *  # noqa: F401,F403
from acpt_estimator.v1.data.azure_storage_datastore import __all__  # noqa: F401
