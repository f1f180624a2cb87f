"""Pipelines in the engine: the neutral PipelineSpec/StepSpec, DAG checks, reuse keys, translation and local runs."""
