"""Shim for ``azureml.core.script_run``: re-exports ``acpt_estimator.v1.core.script_run``."""
from acpt_estimator.v1.core.script_run import *  # noqa: F401,F403
from acpt_estimator.v1.core.script_run import __dir__, __getattr__  # noqa: F401
