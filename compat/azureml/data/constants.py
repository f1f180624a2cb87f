"""Shim for ``azureml.data.constants``: re-exports ``acpt_estimator.v1.data.constants``."""
from acpt_estimator.v1.data.constants import *  # noqa: F401,F403
from acpt_estimator.v1.data.constants import __all__  # noqa: F401
