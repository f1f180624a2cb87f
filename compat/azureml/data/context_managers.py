"""Shim for ``azureml.data.context_managers``: re-exports ``acpt_estimator.v1.data.context_managers``."""
from acpt_estimator.v1.data.context_managers import *  # noqa: F401,F403
from acpt_estimator.v1.data.context_managers import __all__  # noqa: F401
