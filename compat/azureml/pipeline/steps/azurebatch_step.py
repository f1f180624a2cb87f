"""Shim for ``azureml.pipeline.steps.azurebatch_step``: re-exports ``acpt_estimator.v1.pipeline.steps.azurebatch_step``."""
from acpt_estimator.v1.pipeline.steps.azurebatch_step import *  # noqa: F401,F403
