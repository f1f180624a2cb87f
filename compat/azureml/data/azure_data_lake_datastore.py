"""Shim for ``azureml.data.azure_data_lake_datastore``."""
from acpt_estimator.v1.data.azure_data_lake_datastore import *  # noqa: F401,F403
from acpt_estimator.v1.data.azure_data_lake_datastore import __all__  # noqa: F401
