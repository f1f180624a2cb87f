"""Shim for ``azureml.pipeline.core.run``: re-exports ``acpt_estimator.v1.pipeline.core.run``."""
from acpt_estimator.v1.pipeline.core.run import *  # noqa: F401,F403
