"""Shim for ``azureml.pipeline.core.module_step_base``: re-exports ``acpt_estimator.v1.pipeline.core.module_step_base``."""
from acpt_estimator.v1.pipeline.core.module_step_base import *  # noqa: F401,F403
