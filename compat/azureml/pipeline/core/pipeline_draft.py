"""Shim for ``azureml.pipeline.core.pipeline_draft``: re-exports ``acpt_estimator.v1.pipeline.core.pipeline_draft``."""
from acpt_estimator.v1.pipeline.core.pipeline_draft import *  # noqa: F401,F403
