"""Shim for ``azureml.pipeline.core.graph``: re-exports ``acpt_estimator.v1.pipeline.core.graph``."""
from acpt_estimator.v1.pipeline.core.graph import *  # noqa: F401,F403
