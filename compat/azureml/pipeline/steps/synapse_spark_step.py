"""Shim for ``azureml.pipeline.steps.synapse_spark_step``: re-exports ``acpt_estimator.v1.pipeline.steps.synapse_spark_step``."""
from acpt_estimator.v1.pipeline.steps.synapse_spark_step import *  # noqa: F401,F403
