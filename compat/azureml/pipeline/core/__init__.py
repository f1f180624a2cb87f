"""Shim for ``azureml.pipeline.core``: imports work; building pipelines refuses, naming the v2 replacement."""
from acpt_estimator.unsupported import Pipeline, PipelineData  # noqa: F401
