"""Shim for ``azureml.core.script_run_config``: re-exports ``acpt_estimator.v1.core.script_run_config``."""
from acpt_estimator.v1.core.script_run_config import *  # noqa: F401,F403
from acpt_estimator.v1.core.script_run_config import __dir__, __getattr__  # noqa: F401
