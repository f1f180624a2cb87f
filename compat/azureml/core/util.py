"""Shim for ``azureml.core.util``: re-exports ``acpt_estimator.v1.core.util``."""
from acpt_estimator.v1.core.util import *  # noqa: F401,F403
from acpt_estimator.v1.core.util import __all__  # noqa: F401
