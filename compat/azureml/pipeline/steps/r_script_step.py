"""Shim for ``azureml.pipeline.steps.r_script_step``: re-exports ``acpt_estimator.v1.pipeline.steps.r_script_step``."""
from acpt_estimator.v1.pipeline.steps.r_script_step import *  # noqa: F401,F403
