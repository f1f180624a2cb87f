"""Shim for ``azureml.exceptions``: re-exports ``acpt_estimator.v1.exceptions``."""
from acpt_estimator.v1.exceptions import *  # noqa: F401,F403
from acpt_estimator.v1.exceptions import __all__  # noqa: F401
