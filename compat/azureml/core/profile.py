"""Shim for ``azureml.core.profile``: re-exports ``acpt_estimator.v1.core.profile``."""
from acpt_estimator.v1.core.profile import *  # noqa: F401,F403
from acpt_estimator.v1.core.profile import __all__  # noqa: F401
