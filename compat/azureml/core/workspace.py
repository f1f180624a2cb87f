"""Shim for ``azureml.core.workspace``: re-exports ``acpt_estimator.v1.core.workspace``."""
from acpt_estimator.v1.core.workspace import *  # noqa: F401,F403
from acpt_estimator.v1.core.workspace import __dir__, __getattr__  # noqa: F401
