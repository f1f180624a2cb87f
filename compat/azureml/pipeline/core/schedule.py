"""Shim for ``azureml.pipeline.core.schedule``: re-exports ``acpt_estimator.v1.pipeline.core.schedule``."""
from acpt_estimator.v1.pipeline.core.schedule import *  # noqa: F401,F403
