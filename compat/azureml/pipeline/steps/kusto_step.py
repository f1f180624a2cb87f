"""Shim for ``azureml.pipeline.steps.kusto_step``: re-exports ``acpt_estimator.v1.pipeline.steps.kusto_step``."""
from acpt_estimator.v1.pipeline.steps.kusto_step import *  # noqa: F401,F403
