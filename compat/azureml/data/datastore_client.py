"""Shim for ``azureml.data.datastore_client``: re-exports ``acpt_estimator.v1.data.datastore_client``."""
from acpt_estimator.v1.data.datastore_client import *  # noqa: F401,F403
from acpt_estimator.v1.data.datastore_client import __all__  # noqa: F401
