"""Shim for ``azureml.data.datacache``."""
from acpt_estimator.v1.data.datacache import *  # noqa: F401,F403
