"""v1 ``azureml.pipeline.core``: refused with the v2 replacement (azure.ai.ml.dsl.pipeline)."""

from acpt_estimator.unsupported import Pipeline, PipelineData

__all__ = ["Pipeline", "PipelineData"]
