"""v1 ``azureml.pipeline.steps.kusto_step``: Azure Data Explorer (Kusto) (no v2 equivalent; refuses at submit)."""

from acpt_estimator.v1.pipeline.core._refused_steps import no_equivalent

KustoStep = no_equivalent(
    "KustoStep", "v2 pipelines have no Kusto query step.",
    "a v2 data import (azure.ai.ml.data_transfer.import_data) or a command step using the azure-kusto-data client",
    __name__, ("name", "compute_target", "database_name", "query_directory", "output", "parameter_dict", "allow_reuse"))

__all__ = ["KustoStep"]
