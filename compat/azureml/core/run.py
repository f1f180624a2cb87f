"""Shim for ``azureml.core.run``: re-exports ``acpt_estimator.v1.core.run``."""
from acpt_estimator.v1.core.run import *  # noqa: F401,F403
from acpt_estimator.v1.core.run import __dir__, __getattr__  # noqa: F401
