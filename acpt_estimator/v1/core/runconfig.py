"""v1 ``RunConfiguration`` and ``DockerConfiguration``: just enough for ``ScriptRunConfig(run_config=...)``."""

from __future__ import annotations

from acpt_estimator.distribution import MpiConfiguration, PyTorchConfiguration, TensorflowConfiguration
from acpt_estimator.v1.core.environment import Environment

DEFAULT_MAX_RUN_DURATION_SECONDS = 2592000  # 30 days, v1's default
_MPI_COMMUNICATORS = ("intelmpi", "openmpi", "mpi")


class DockerConfiguration:
    """v1 ``DockerConfiguration(use_docker=None, shm_size=None, shared_volumes=None, arguments=None)``."""

    def __init__(self, use_docker=None, shm_size=None, shared_volumes=None, arguments=None):
        self.use_docker = use_docker
        self.shm_size = shm_size
        self.shared_volumes = shared_volumes
        self.arguments = list(arguments or [])


class _AmlComputeSection:
    def __init__(self):
        self.vm_size = None
        self.vm_priority = None
        self._cluster_max_node_count = 1


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
        self.target = "local"
        self.node_count = 1
        self.environment = Environment(name="default-environment")
        if conda_dependencies is not None:
            self.environment.python.conda_dependencies = conda_dependencies
        self.environment_variables = {}
        self.max_run_duration_seconds = DEFAULT_MAX_RUN_DURATION_SECONDS
        self.mpi = MpiConfiguration()
        self.pytorch = PyTorchConfiguration()
        self.tensorflow = TensorflowConfiguration()
        self.docker = DockerConfiguration()
        self.amlcompute = _AmlComputeSection()
        self.data_references = {}
        self.data = {}
        self.output_data = {}
        self.history = None
        self.name = _name

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

    def __repr__(self) -> str:
        return (f"RunConfiguration(target={self.target!r}, framework={self.framework!r}, "
                f"communicator={self.communicator!r}, node_count={self.node_count!r})")
