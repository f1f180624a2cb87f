"""v1 ``azureml.pipeline.steps``: the built-in pipeline steps."""

from acpt_estimator.v1.pipeline.steps.command_step import CommandStep
from acpt_estimator.v1.pipeline.steps.estimator_step import EstimatorStep
from acpt_estimator.v1.pipeline.steps.mpi_step import MpiStep
from acpt_estimator.v1.pipeline.steps.parallel_run_config import ParallelRunConfig
from acpt_estimator.v1.pipeline.steps.parallel_run_step import ParallelRunStep
from acpt_estimator.v1.pipeline.steps.python_script_step import PythonScriptStep

__all__ = ["CommandStep", "EstimatorStep", "MpiStep", "ParallelRunConfig", "ParallelRunStep", "PythonScriptStep"]
