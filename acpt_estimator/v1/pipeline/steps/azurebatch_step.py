"""v1 ``azureml.pipeline.steps.azurebatch_step``: Azure Batch (no v2 equivalent; refuses at submit)."""

from acpt_estimator.v1.pipeline.core._refused_steps import no_equivalent

AzureBatchStep = no_equivalent(
    "AzureBatchStep", "v2 pipelines do not run tasks on Azure Batch pools.",
    "a v2 command step on an Azure ML compute cluster (azure.ai.ml.command)",
    __name__, ("name", "create_pool", "pool_id", "delete_batch_job_after_finish", "delete_batch_pool_after_finish", "is_positive_exit_code_failure", "vm_image_urn", "run_task_as_admin", "target_compute_nodes", "vm_size", "source_directory", "executable", "arguments", "inputs", "outputs", "allow_reuse", "compute_target", "version"))

__all__ = ["AzureBatchStep"]
