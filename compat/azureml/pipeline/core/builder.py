"""Shim for ``azureml.pipeline.core.builder``: re-exports ``acpt_estimator.v1.pipeline.core.builder``."""
from acpt_estimator.v1.pipeline.core.builder import *  # noqa: F401,F403
