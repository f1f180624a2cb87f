"""Shim for ``azureml.pipeline.steps.parallel_run_step``: re-exports ``acpt_estimator.v1.pipeline.steps.parallel_run_step``."""
from acpt_estimator.v1.pipeline.steps.parallel_run_step import *  # noqa: F401,F403
from acpt_estimator.v1.pipeline.steps.parallel_run_step import __all__  # noqa: F401
