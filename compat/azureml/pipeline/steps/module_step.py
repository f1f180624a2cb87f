"""Shim for ``azureml.pipeline.steps.module_step``: re-exports ``acpt_estimator.v1.pipeline.steps.module_step``."""
from acpt_estimator.v1.pipeline.steps.module_step import *  # noqa: F401,F403
