"""Shim for ``azureml.core.datastore``: re-exports ``acpt_estimator.v1.core.datastore``."""
from acpt_estimator.v1.core.datastore import *  # noqa: F401,F403
from acpt_estimator.v1.core.datastore import __dir__, __getattr__  # noqa: F401
