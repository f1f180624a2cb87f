"""Shim for ``azureml.pipeline.core.pipeline``: re-exports ``acpt_estimator.v1.pipeline.core.pipeline``."""
from acpt_estimator.v1.pipeline.core.pipeline import *  # noqa: F401,F403
