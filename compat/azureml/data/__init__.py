"""Shim for ``azureml.data``: re-exports ``acpt_estimator.v1.data``."""
from acpt_estimator.v1.data import *  # noqa: F401,F403
from acpt_estimator.v1.data import __all__  # noqa: F401
