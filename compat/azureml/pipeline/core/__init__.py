"""Shim for ``azureml.pipeline.core``: re-exports ``acpt_estimator.v1.pipeline.core``."""
from acpt_estimator.v1.pipeline.core import *  # noqa: F401,F403
from acpt_estimator.v1.pipeline.core import __all__  # noqa: F401
