"""v1 ``azureml.pipeline.steps.synapse_spark_step``: Synapse Spark (no v2 equivalent; refuses at submit)."""

from acpt_estimator.v1.pipeline.core._refused_steps import no_equivalent

SynapseSparkStep = no_equivalent(
    "SynapseSparkStep", "v2 pipelines run Spark through serverless Spark or an attached Synapse pool, as a Spark node.",
    "a v2 Spark node: azure.ai.ml.spark(code=..., entry={\"file\": ...}, resources=...)",
    __name__, ("file", "source_directory", "compute_target", "driver_memory", "driver_cores", "executor_memory", "executor_cores", "num_executors", "name", "app_name", "environment", "arguments", "inputs", "outputs", "conf", "py_files", "jars", "files", "allow_reuse", "version"))

__all__ = ["SynapseSparkStep"]
