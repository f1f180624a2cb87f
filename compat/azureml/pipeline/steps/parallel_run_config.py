"""Shim for ``azureml.pipeline.steps.parallel_run_config``: re-exports ``acpt_estimator.v1.pipeline.steps.parallel_run_config``."""
from acpt_estimator.v1.pipeline.steps.parallel_run_config import *  # noqa: F401,F403
from acpt_estimator.v1.pipeline.steps.parallel_run_config import __all__  # noqa: F401
