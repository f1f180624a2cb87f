"""Shim for ``azureml.core.dataset``: re-exports ``acpt_estimator.v1.core.dataset``."""
from acpt_estimator.v1.core.dataset import *  # noqa: F401,F403
from acpt_estimator.v1.core.dataset import __dir__, __getattr__  # noqa: F401
