"""Shim for ``azureml.pipeline.steps.databricks_step``: re-exports ``acpt_estimator.v1.pipeline.steps.databricks_step``."""
from acpt_estimator.v1.pipeline.steps.databricks_step import *  # noqa: F401,F403
