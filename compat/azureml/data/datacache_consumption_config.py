"""Shim for ``azureml.data.datacache_consumption_config``."""
from acpt_estimator.v1.data.datacache_consumption_config import *  # noqa: F401,F403
from acpt_estimator.v1.data.datacache_consumption_config import __all__  # noqa: F401
