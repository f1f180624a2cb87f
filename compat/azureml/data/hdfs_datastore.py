"""Shim for ``azureml.data.hdfs_datastore``: re-exports ``acpt_estimator.v1.data.hdfs_datastore``."""
from acpt_estimator.v1.data.hdfs_datastore import *  # noqa: F401,F403
from acpt_estimator.v1.data.hdfs_datastore import __all__  # noqa: F401
