"""Shim for ``azureml.pipeline.core.module``: re-exports ``acpt_estimator.v1.pipeline.core.module``."""
from acpt_estimator.v1.pipeline.core.module import *  # noqa: F401,F403
