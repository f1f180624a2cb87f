"""Shim for ``azureml.pipeline.steps.estimator_step``: re-exports ``acpt_estimator.v1.pipeline.steps.estimator_step``."""
from acpt_estimator.v1.pipeline.steps.estimator_step import *  # noqa: F401,F403
