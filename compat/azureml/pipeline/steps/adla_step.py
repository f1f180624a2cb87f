"""Shim for ``azureml.pipeline.steps.adla_step``: re-exports ``acpt_estimator.v1.pipeline.steps.adla_step``."""
from acpt_estimator.v1.pipeline.steps.adla_step import *  # noqa: F401,F403
