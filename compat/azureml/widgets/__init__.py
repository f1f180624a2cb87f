"""Shim for ``azureml.widgets``: re-exports ``acpt_estimator.v1.widgets``."""
from acpt_estimator.v1.widgets import *  # noqa: F401,F403
from acpt_estimator.v1.widgets import __dir__, __getattr__  # noqa: F401
