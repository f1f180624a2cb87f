"""Shim for ``azureml.pipeline.core.pipeline_endpoint``: re-exports ``acpt_estimator.v1.pipeline.core.pipeline_endpoint``."""
from acpt_estimator.v1.pipeline.core.pipeline_endpoint import *  # noqa: F401,F403
