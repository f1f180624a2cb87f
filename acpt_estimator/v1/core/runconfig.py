"""v1 ``azureml.core.runconfig``: ``RunConfiguration`` (target, environment, distribution, data, limits) and its
sections, saved to and loaded from ``.azureml/<name>.runconfig`` in v1's YAML form."""

from __future__ import annotations

import logging
import os

import yaml

from acpt_estimator.distribution import MpiConfiguration, PyTorchConfiguration, TensorflowConfiguration
from acpt_estimator.exceptions import UserErrorException
from acpt_estimator.v1.core._runconfig_sections import (  # noqa: F401 (v1 names of this module)
    AmlComputeConfiguration, ApplicationEndpointConfiguration, AzureContainerRegistry, Data, DatacacheConfiguration,
    DataLocation, DataPath, DataReferenceConfiguration, Dataset, DatasetRegistrationOptions, DockerConfiguration,
    GlobsOptions, HdiConfiguration, HistoryConfiguration, KubernetesComputeConfiguration, MountOptions, OutputData,
    OutputOptions, ParallelTaskConfiguration, RegistrationOptions, SparkConfiguration, UploadOptions, Uri)
from acpt_estimator.v1.core._environment_sections import variables_property
from acpt_estimator.v1.core.container_registry import ContainerRegistry
from acpt_estimator.v1.core.environment import Environment
from acpt_estimator._lazy import lazy_names

logger = logging.getLogger(__name__)
DEFAULT_MAX_RUN_DURATION_SECONDS = 2592000  # 30 days, v1's default
RUNCONFIG_EXTENSION = ".runconfig"
_MPI_COMMUNICATORS = ("intelmpi", "openmpi", "mpi")
# v1's module constants, with v1's values.
LOCAL_RUNCONFIG_NAME = "local"
SUPPORTED_DATAREF_MODES = ["mount", "download", "upload"]
SUPPORTED_DELIVERY_MECHANISM = ["direct", "mount", "download", "upload"]
SUPPORTED_PYTORCH_BACKENDS = ["nccl", "gloo"]


class EnvironmentDefinition(Environment):
    """DEPRECATED in v1: use ``azureml.core.Environment`` (the same object, with an optional name)."""

    def __init__(self, name=None):
        super().__init__(name)


class RunConfiguration:
    """v1 ``azureml.core.runconfig.RunConfiguration``: target, environment, distribution and limits of a run.

    ``framework``/``communicator`` follow v1: ``Python``/``IntelMpi`` (+ ``mpi``) is an MPI job,
    ``PyTorch``/``Nccl``|``Gloo`` (+ ``pytorch``) a torch.distributed job, ``Python``/``None`` a single process.
    """

    def __init__(self, script=None, arguments=None, framework=None, communicator=None, conda_dependencies=None,
                 _history_enabled=None, _path=None, _name=None, command=None):
        self.script = script
        self.arguments = list(arguments or [])
        self.command = command
        self.framework = framework or "Python"
        self.communicator = communicator or "None"
        self._target = "local"
        self.node_count = 1
        self.priority = None
        self.environment = Environment(name="default-environment")
        if conda_dependencies is not None:
            self.environment.python.conda_dependencies = conda_dependencies
        self._environment_variables = {}
        self.max_run_duration_seconds = DEFAULT_MAX_RUN_DURATION_SECONDS
        self.mpi = MpiConfiguration()
        self.pytorch = PyTorchConfiguration()
        self.tensorflow = TensorflowConfiguration()
        self.docker = DockerConfiguration()
        self.amlcompute = AmlComputeConfiguration()
        self.kubernetescompute = KubernetesComputeConfiguration()
        self.history = HistoryConfiguration(output_collection=_history_enabled is not False)
        self.data_references = {}
        self.data = {}
        self.output_data = {}
        self.datacaches = []
        self.source_directory_data_store = None
        self.credential_passthrough = False
        self.services = {}
        self.identity = None
        self._path = _path
        self._name = _name

    @property
    def target(self):
        """A compute name, a compute object, or ``'local'`` (v1's default)."""
        return self._target

    @target.setter
    def target(self, value):
        self._target = value

    environment_variables = variables_property("Variables set for the run (on top of the environment's own).")

    @property
    def auto_prepare_environment(self):
        """DEPRECATED in v1: environments are always prepared."""
        return True

    @auto_prepare_environment.setter
    def auto_prepare_environment(self, _):
        logger.warning("'auto_prepare_environment' is deprecated (v1 too): environments are always prepared.")

    @property
    def name(self):
        return self._name

    @name.setter
    def name(self, value):
        self._name = value

    # ---- distribution -------------------------------------------------------------------------------
    def _distributed_config(self):
        """The distributed-config object this run configuration describes, or None for a single process."""
        communicator = str(self.communicator or "None").lower()
        framework = str(self.framework or "Python").lower()
        if communicator in _MPI_COMMUNICATORS:
            return MpiConfiguration(process_count_per_node=self.mpi.process_count_per_node,
                                    node_count=self.node_count)
        if framework == "pytorch" or communicator in ("nccl", "gloo"):
            backend = communicator if communicator in ("nccl", "gloo") else self.pytorch.communication_backend
            return PyTorchConfiguration(communication_backend=backend, process_count=self.pytorch.process_count,
                                        node_count=self.node_count)
        if communicator == "parameterserver" or framework == "tensorflow":
            return self.tensorflow
        return None

    # ---- files ----------------------------------------------------------------------------------------
    def save(self, path=None, name=None, separate_environment_yaml=False):
        """v1's layout: ``<path>/.azureml/<name>.runconfig`` (or ``path`` itself when it names a file), with the
        conda file beside it (``conda_dependencies.yml``). Registry passwords are never written."""
        from acpt_estimator.v1.core import _runconfig_file

        _runconfig_file.save(self, path, name, separate_environment_yaml)

    @staticmethod
    def load(path, name=None):
        """From ``<path>/.azureml/<name>.runconfig`` (or ``aml_config/``, or ``path`` naming the file)."""
        from acpt_estimator.v1.core import _runconfig_file

        return _runconfig_file.load(path, name)

    @staticmethod
    def delete(path, name):
        """Delete ``<path>/.azureml/<name>.runconfig`` (and the ``aml_config/`` one)."""
        found = False
        for folder in (".azureml", "aml_config"):
            file = os.path.join(path, folder, name + RUNCONFIG_EXTENSION)
            if os.path.isfile(file):
                os.remove(file)
                found = True
        if not found:
            raise UserErrorException(f"RunConfiguration.delete(path={path!r}, name={name!r}): no "
                                     f".azureml/{name}{RUNCONFIG_EXTENSION} there.")

    def __repr__(self) -> str:
        return (f"RunConfiguration(target={self.target!r}, framework={self.framework!r}, "
                f"communicator={self.communicator!r}, node_count={self.node_count!r})")

    def __str__(self) -> str:
        from acpt_estimator.v1.core import _runconfig_file

        return yaml.safe_dump(_runconfig_file.to_dict(self), sort_keys=False)


__all__ = ["AmlComputeConfiguration", "ApplicationEndpointConfiguration", "AzureContainerRegistry", "ContainerRegistry",
           "Data", "DataLocation", "DataPath", "DataReferenceConfiguration", "DatacacheConfiguration", "Dataset",
           "DatasetRegistrationOptions", "DockerConfiguration", "EnvironmentDefinition", "GlobsOptions",
           "HdiConfiguration", "HistoryConfiguration", "KubernetesComputeConfiguration", "MountOptions",
           "MpiConfiguration", "OutputData", "OutputOptions", "ParallelTaskConfiguration", "PyTorchConfiguration",
           "RegistrationOptions", "RunConfiguration", "SparkConfiguration", "TensorflowConfiguration", "UploadOptions",
           "Uri"]


# v1 names this module also exported, defined elsewhere: resolved on first use (v1-importable.json).
__getattr__, __dir__ = lazy_names(__name__, {
    **dict.fromkeys(["DatabricksCluster", "DatabricksEnvironment", "DatabricksSection", "EggLibrary", "JarLibrary",
        "MavenLibrary", "PyPiLibrary", "RCranLibrary"], "acpt_estimator.v1.core.databricks"),
    **dict.fromkeys(["DockerEnvironment", "DockerSection", "PythonEnvironment", "PythonSection", "SparkEnvironment",
        "SparkSection"], "acpt_estimator.v1.core._environment_sections"),
    **dict.fromkeys(["DEFAULT_CPU_IMAGE", "DEFAULT_GPU_IMAGE", "Environment"], "acpt_estimator.v1.core.environment"),
    **dict.fromkeys(["MPI_CPU_IMAGE", "MPI_GPU_IMAGE"], "acpt_estimator.v1.core._images"),
    **dict.fromkeys(["RunConfigurationException", "UserErrorException"], "acpt_estimator.exceptions"),
    "ComputeTarget": "acpt_estimator.v1.core.compute.compute",
    "AbstractComputeTarget": "acpt_estimator.v1.core.compute_target",
    "CondaDependencies": "acpt_estimator.v1.core.conda_dependencies",
    "Cr": "acpt_estimator.v1.core.container_registry:ContainerRegistry",
    "Run": "acpt_estimator.v1.core.run",
    "DatacacheConsumptionConfig": "acpt_estimator.v1.data.datacache_consumption_config",
    "DatasetConsumptionConfig": "acpt_estimator.v1.data.dataset_consumption_config",
})
