"""acpt-estimator: Azure ML v1 PyTorch estimator code, run unchanged on Azure ML v2 (ACPT) or locally."""

from .data import DataPath, DataReference, Datastore, DatasetConsumptionConfig, FileDataset
from .distribution import Gloo, Mpi, MpiConfiguration, Nccl, PyTorchConfiguration
from .environment import CondaDependencies, Environment
from .estimator import Estimator, PyTorch
from .exceptions import (ActivityFailedException, ComputeTargetException, TrainingException,
                         UserErrorException)
from .experiment import Experiment
from .runconfig import RunConfiguration
from .script_run_config import ScriptRunConfig
from .spec import JobSpec
from .target import force_target
from .workspace import Workspace

__version__ = "0.1.0"
# azureml.core.VERSION: what v1 drivers print as the SDK version.
VERSION = __version__


def to_v2_job(config, **kwargs):
    """The ``azure.ai.ml`` job an estimator (or ScriptRunConfig) becomes; imports azure-ai-ml on first use."""
    from .backends.azureml.translate import to_v2_job as _to_v2_job

    return _to_v2_job(config, **kwargs)


__all__ = sorted([
    "ActivityFailedException", "ComputeTargetException", "CondaDependencies", "DataPath", "DataReference",
    "DatasetConsumptionConfig", "Datastore", "Environment", "Estimator", "FileDataset", "Gloo", "JobSpec", "Mpi",
    "MpiConfiguration", "Nccl", "PyTorch", "PyTorchConfiguration", "TrainingException", "UserErrorException",
    "to_v2_job", "VERSION", "Experiment", "RunConfiguration", "ScriptRunConfig", "Workspace", "force_target",
])
