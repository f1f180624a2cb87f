"""Shim for ``azureml.data.dbfs_datastore``: re-exports ``acpt_estimator.v1.data.dbfs_datastore``."""
from acpt_estimator.v1.data.dbfs_datastore import *  # noqa: F401,F403
from acpt_estimator.v1.data.dbfs_datastore import __all__  # noqa: F401
