"""v1 ``azureml.pipeline.core``: pipelines, steps' base, intermediate data, parameters, runs, publishing."""

from acpt_estimator.v1.pipeline.core.builder import PipelineData, PipelineStep, StepSequence
from acpt_estimator.v1.pipeline.core.graph import (InputPortBinding, Module, OutputPortBinding, PipelineDataset,
                                                   PipelineParameter, TrainingOutput)
from acpt_estimator.v1.pipeline.core.pipeline import Pipeline
from acpt_estimator.v1.pipeline.core.port_data_reference import PortDataReference
from acpt_estimator.v1.pipeline.core.run import PipelineRun, StepRun, StepRunOutput

__all__ = ["InputPortBinding", "Module", "OutputPortBinding", "Pipeline", "PipelineData", "PipelineDataset",
           "PipelineParameter", "PipelineRun", "PipelineStep", "PortDataReference", "StepRun", "StepRunOutput",
           "StepSequence", "TrainingOutput"]
