"""Shim for ``azureml.pipeline.steps.automl_step``: re-exports ``acpt_estimator.v1.pipeline.steps.automl_step``."""
from acpt_estimator.v1.pipeline.steps.automl_step import *  # noqa: F401,F403
