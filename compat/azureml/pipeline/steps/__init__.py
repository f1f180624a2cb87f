"""Shim for ``azureml.pipeline.steps``: re-exports ``acpt_estimator.v1.pipeline.steps``."""
from acpt_estimator.v1.pipeline.steps import *  # noqa: F401,F403
from acpt_estimator.v1.pipeline.steps import __all__  # noqa: F401
