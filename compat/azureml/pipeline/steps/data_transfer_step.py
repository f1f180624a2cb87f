"""Shim for ``azureml.pipeline.steps.data_transfer_step``: re-exports ``acpt_estimator.v1.pipeline.steps.data_transfer_step``."""
from acpt_estimator.v1.pipeline.steps.data_transfer_step import *  # noqa: F401,F403
