"""Shim for ``azureml.data.datacache_client``: re-exports ``acpt_estimator.v1.data.datacache_client``."""
from acpt_estimator.v1.data.datacache_client import *  # noqa: F401,F403
from acpt_estimator.v1.data.datacache_client import __all__  # noqa: F401
