"""v1 ``azureml.pipeline.steps.adla_step``: Azure Data Lake Analytics U-SQL (no v2 equivalent; refuses at submit)."""

from acpt_estimator.v1.pipeline.core._refused_steps import no_equivalent

AdlaStep = no_equivalent(
    "AdlaStep", "Azure Data Lake Analytics (U-SQL) was retired by Azure.",
    "a v2 Spark job (azure.ai.ml.spark) or a command step reading the data",
    __name__, ("script_name", "name", "inputs", "outputs", "params", "degree_of_parallelism", "priority", "runtime_version", "compute_target", "source_directory", "allow_reuse", "version", "hash_paths"))

__all__ = ["AdlaStep"]
