"""Shim for ``azureml.pipeline.steps.python_script_step``: re-exports ``acpt_estimator.v1.pipeline.steps.python_script_step``."""
from acpt_estimator.v1.pipeline.steps.python_script_step import *  # noqa: F401,F403
