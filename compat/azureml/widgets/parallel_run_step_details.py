"""Shim for ``azureml.widgets.parallel_run_step_details``."""
from acpt_estimator.v1.widgets.parallel_run_step_details import *  # noqa: F401,F403
from acpt_estimator.v1.widgets.parallel_run_step_details import __all__  # noqa: F401
