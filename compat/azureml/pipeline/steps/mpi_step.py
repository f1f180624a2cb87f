"""Shim for ``azureml.pipeline.steps.mpi_step``: re-exports ``acpt_estimator.v1.pipeline.steps.mpi_step``."""
from acpt_estimator.v1.pipeline.steps.mpi_step import *  # noqa: F401,F403
