"""acpt-estimator: Azure ML v1 PyTorch estimator code, run unchanged on Azure ML v2 (ACPT) or locally.

Layers, each importing only those below it (tests/unit/test_layering.py checks):
  compat/azureml/*  one-line re-exports of v1/*
  v1/               the v1 object model users touch: builds neutral specs, calls the engine, wraps run handles
  engine            everything else here but job_runtime/: specs, arguments, distribution, environments, snapshot,
                    tracking, hyperdrive/, onnx/, run_handle, services (local or cloud, per workspace), backends/
                    (local, azureml, capture); never imports v1
  job_runtime/      ships inside jobs; imports only itself and the standard library
This file is the public door: it may name v1 lazily, and it registers v1's Run wrapper with the engine.
"""

from . import run_handle as _run_handle
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


def _v1_run(handle):
    """A backend's run handle as users see it: v1's Run around it (the engine hands out handles only)."""
    from .v1.core._run_handle import wrap

    return wrap(handle)


_run_handle.set_presenter(_v1_run)


def to_v2_job(config, **kwargs):
    """The ``azure.ai.ml`` job an estimator (or ScriptRunConfig) becomes; imports azure-ai-ml on first use."""
    from .backends.azureml.translate import to_v2_job as _to_v2_job

    return _to_v2_job(config, **kwargs)


__all__ = sorted(list(_LAZY) + ["VERSION", "to_v2_job"])
