"""Shim for ``azureml.pipeline.steps.hyper_drive_step``: re-exports ``acpt_estimator.v1.pipeline.steps.hyper_drive_step``."""
from acpt_estimator.v1.pipeline.steps.hyper_drive_step import *  # noqa: F401,F403
