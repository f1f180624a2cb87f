"""acpt-estimator: Azure ML v1 PyTorch estimator code, run unchanged on Azure ML v2 (ACPT) or locally."""

from ._lazy import lazy_names

__version__ = "0.1.0"
# azureml.core.VERSION: what v1 drivers print as the SDK version.
VERSION = __version__

# Names resolve on first use (PEP 562): every rank of a job imports this package through
# `from azureml.core.run import Run`, and should not pay for the estimator machinery it does not use.
_LAZY = {
    "ActivityFailedException": "exceptions", "ComputeTargetException": "exceptions",
    "TrainingException": "exceptions", "UserErrorException": "exceptions",
    "CondaDependencies": "v1.core.conda_dependencies", "Environment": "v1.core.environment",
    "DataPath": "v1.data.datapath", "DataReference": "v1.data.data_reference", "Datastore": "v1.core.datastore",
    "DatasetConsumptionConfig": "v1.data.dataset_consumption_config", "FileDataset": "v1.data.file_dataset",
    "Gloo": "distribution", "Mpi": "distribution", "MpiConfiguration": "distribution", "Nccl": "distribution",
    "PyTorchConfiguration": "distribution",
    "Estimator": "v1.train.estimator.estimator", "PyTorch": "v1.train.dnn.pytorch",
    "Experiment": "v1.core.experiment", "RunConfiguration": "v1.core.runconfig",
    "ScriptRunConfig": "v1.core.script_run_config", "JobSpec": "spec", "force_target": "target",
    "Workspace": "v1.core.workspace",
}


__getattr__, __dir__ = lazy_names(__name__, _LAZY)


def to_v2_job(config, **kwargs):
    """The ``azure.ai.ml`` job an estimator (or ScriptRunConfig) becomes; imports azure-ai-ml on first use."""
    from .backends.azureml.translate import to_v2_job as _to_v2_job

    return _to_v2_job(config, **kwargs)


__all__ = sorted(list(_LAZY) + ["VERSION", "to_v2_job"])
