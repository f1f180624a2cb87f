"""v1 ``azureml.pipeline.steps.databricks_step``: Databricks (no v2 equivalent; refuses at submit)."""

from acpt_estimator.v1.pipeline.core._refused_steps import no_equivalent

DatabricksStep = no_equivalent(
    "DatabricksStep", "v2 pipelines have no Databricks step.",
    "run the notebook or job in Databricks (Databricks Jobs API) and read its output through a datastore, or a v2 Spark step (azure.ai.ml.spark)",
    __name__, ("name", "inputs", "outputs", "existing_cluster_id", "spark_version", "node_type", "instance_pool_id", "num_workers", "min_workers", "max_workers", "spark_env_variables", "spark_conf", "init_scripts", "cluster_log_dbfs_path", "notebook_path", "notebook_params", "python_script_path", "python_script_params", "main_class_name", "jar_params", "python_script_name", "source_directory", "hash_paths", "run_name", "timeout_seconds", "runconfig", "maven_libraries", "pypi_libraries", "egg_libraries", "jar_libraries", "rcran_libraries", "compute_target", "allow_reuse", "version", "permit_cluster_restart"))

__all__ = ["DatabricksStep"]
