"""v1 ``azureml.pipeline.steps``: the built-in pipeline steps."""

from acpt_estimator.v1.pipeline.steps.adla_step import AdlaStep
from acpt_estimator.v1.pipeline.steps.automl_step import AutoMLStep, AutoMLStepRun
from acpt_estimator.v1.pipeline.steps.azurebatch_step import AzureBatchStep
from acpt_estimator.v1.pipeline.steps.command_step import CommandStep
from acpt_estimator.v1.pipeline.steps.data_transfer_step import DataTransferStep
from acpt_estimator.v1.pipeline.steps.databricks_step import DatabricksStep
from acpt_estimator.v1.pipeline.steps.estimator_step import EstimatorStep
from acpt_estimator.v1.pipeline.steps.hyper_drive_step import HyperDriveStep, HyperDriveStepRun
from acpt_estimator.v1.pipeline.steps.kusto_step import KustoStep
from acpt_estimator.v1.pipeline.steps.module_step import ModuleStep
from acpt_estimator.v1.pipeline.steps.mpi_step import MpiStep
from acpt_estimator.v1.pipeline.steps.parallel_run_config import ParallelRunConfig
from acpt_estimator.v1.pipeline.steps.parallel_run_step import ParallelRunStep
from acpt_estimator.v1.pipeline.steps.python_script_step import PythonScriptStep
from acpt_estimator.v1.pipeline.steps.r_script_step import RScriptStep
from acpt_estimator.v1.pipeline.steps.synapse_spark_step import SynapseSparkStep

__all__ = ["AdlaStep", "AutoMLStep", "AutoMLStepRun", "AzureBatchStep", "CommandStep", "DataTransferStep",
           "DatabricksStep", "EstimatorStep", "HyperDriveStep", "HyperDriveStepRun", "KustoStep", "ModuleStep",
           "MpiStep", "ParallelRunConfig", "ParallelRunStep", "PythonScriptStep", "RScriptStep", "SynapseSparkStep"]
