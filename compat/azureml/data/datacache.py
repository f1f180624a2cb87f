"""Shim for ``azureml.data.datacache``: re-exports ``acpt_estimator.v1.data.datacache``."""
from acpt_estimator.v1.data.datacache import *  # noqa: F401,F403
from acpt_estimator.v1.data.datacache import __all__, __dir__, __getattr__  # noqa: F401
