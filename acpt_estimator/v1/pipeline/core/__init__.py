"""v1 ``azureml.pipeline.core``: pipelines, steps' base, intermediate data, parameters, runs, publishing."""

from acpt_estimator.v1.pipeline.core.builder import PipelineData, PipelineStep, StepSequence
from acpt_estimator.v1.pipeline.core.graph import (InputPortBinding, OutputPortBinding, PipelineDataset,
                                                   PipelineParameter, TrainingOutput)
from acpt_estimator.v1.pipeline.core.module import Module, ModuleVersion, ModuleVersionDescriptor
from acpt_estimator.v1.pipeline.core.pipeline import Pipeline
from acpt_estimator.v1.pipeline.core.pipeline_draft import PipelineDraft
from acpt_estimator.v1.pipeline.core.pipeline_endpoint import PipelineEndpoint
from acpt_estimator.v1.pipeline.core.port_data_reference import PortDataReference
from acpt_estimator.v1.pipeline.core.published_pipeline import PublishedPipeline
from acpt_estimator.v1.pipeline.core.run import PipelineRun, StepRun, StepRunOutput
from acpt_estimator.v1.pipeline.core.schedule import Schedule, ScheduleRecurrence, TimeZone

__all__ = ["InputPortBinding", "Module", "ModuleVersion", "ModuleVersionDescriptor", "OutputPortBinding", "Pipeline",
           "PipelineData", "PipelineDataset", "PipelineDraft", "PipelineEndpoint", "PipelineParameter", "PipelineRun",
           "PipelineStep", "PortDataReference", "PublishedPipeline", "Schedule", "ScheduleRecurrence", "StepRun",
           "StepRunOutput", "StepSequence", "TimeZone", "TrainingOutput"]
