"""Shim for ``azureml.pipeline.core.pipeline_output_dataset``: re-exports ``acpt_estimator.v1.pipeline.core.pipeline_output_dataset``."""
from acpt_estimator.v1.pipeline.core.pipeline_output_dataset import *  # noqa: F401,F403
