"""Shim for ``azureml.pipeline.steps.command_step``: re-exports ``acpt_estimator.v1.pipeline.steps.command_step``."""
from acpt_estimator.v1.pipeline.steps.command_step import *  # noqa: F401,F403
