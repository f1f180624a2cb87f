"""Shim for ``azureml.data.azure_postgre_sql_datastore``."""
from acpt_estimator.v1.data.azure_postgre_sql_datastore import *  # noqa: F401,F403
from acpt_estimator.v1.data.azure_postgre_sql_datastore import __all__  # noqa: F401
