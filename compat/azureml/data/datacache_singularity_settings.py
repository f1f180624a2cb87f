"""Shim for ``azureml.data.datacache_singularity_settings``."""
from acpt_estimator.v1.data.datacache_singularity_settings import *  # noqa: F401,F403
from acpt_estimator.v1.data.datacache_singularity_settings import __all__  # noqa: F401
