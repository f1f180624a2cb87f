"""The sections of a v1 ``RunConfiguration``: compute, docker, history, and the data/output configuration objects."""

from __future__ import annotations

from acpt_estimator.exceptions import UserErrorException
from acpt_estimator.v1._refusal import refuse
from acpt_estimator.v1.core.container_registry import ContainerRegistry

_MODES = ("mount", "download", "upload", "direct")


class _Fields:
    """Keyword-initialised holder: ``Section(a=1)``; unknown names are an error naming the allowed ones."""

    _defaults: dict = {}

    def __init__(self, **kwargs):
        unknown = sorted(set(kwargs) - set(self._defaults))
        if unknown:
            raise UserErrorException(f"{type(self).__name__} got unknown arguments {unknown}; allowed: "
                                     f"{sorted(self._defaults)}.")
        for name, default in self._defaults.items():
            setattr(self, name, kwargs.get(name, default() if callable(default) else default))

    def __repr__(self) -> str:
        shown = ", ".join(f"{k}={getattr(self, k)!r}" for k in self._defaults)
        return f"{type(self).__name__}({shown})"


class DockerConfiguration:
    """v1 ``DockerConfiguration(use_docker=False, shared_volumes=True, arguments=[], shm_size='2g')``; v2 jobs always
    run in a container, and ``shm_size`` becomes the job's ``resources.shm_size``."""

    def __init__(self, use_docker=None, shm_size=None, shared_volumes=None, arguments=None):
        self.use_docker = use_docker
        self.shm_size = shm_size
        self.shared_volumes = shared_volumes
        self.arguments = list(arguments or [])


class AmlComputeConfiguration(_Fields):
    """v1 run-based compute: ``vm_size``/``vm_priority`` become v2 serverless ``instance_type``/``job_tier``."""

    _defaults = {"vm_size": None, "vm_priority": None, "_cluster_max_node_count": 1, "_retain_cluster": False,
                 "name": None}


class KubernetesComputeConfiguration(_Fields):
    """v1 ``KubernetesComputeConfiguration(instance_type=None)``: v2 ``resources.instance_type``."""

    _defaults = {"instance_type": None}


class HistoryConfiguration(_Fields):
    """v1 ``HistoryConfiguration``: ``./outputs`` is always collected and ``./logs`` streamed, as v1's defaults."""

    _defaults = {"output_collection": True, "snapshot_project": True, "directories_to_watch": lambda: ["logs"]}


class DataReferenceConfiguration(_Fields):
    """v1 ``DataReferenceConfiguration``: a datastore path and how the job sees it (``mode``)."""

    _defaults = {"datastore_name": None, "mode": "mount", "path_on_datastore": None, "path_on_compute": None,
                 "overwrite": False}

    def __init__(self, datastore_name=None, mode="mount", path_on_datastore=None, path_on_compute=None,
                 overwrite=False):
        if mode not in _MODES:
            raise UserErrorException(f"DataReferenceConfiguration(mode={mode!r}) must be one of {list(_MODES)}.")
        super().__init__(datastore_name=datastore_name, mode=mode, path_on_datastore=path_on_datastore,
                         path_on_compute=path_on_compute, overwrite=overwrite)


class DataPath(_Fields):
    """v1 ``runconfig.DataPath(datastore_name, relative_path)``: a datastore path inside ``Data``/``OutputData``."""

    _defaults = {"datastore_name": None, "relative_path": None}

    def __init__(self, datastore_name=None, relative_path=None):
        super().__init__(datastore_name=datastore_name, relative_path=relative_path)


class Dataset(_Fields):
    """v1 ``runconfig.Dataset(dataset_id, dataset_name, dataset_version)``: a registered dataset by name."""

    _defaults = {"dataset_id": None, "dataset_name": None, "dataset_version": None}

    def __init__(self, dataset_id=None, dataset_name=None, dataset_version=None):
        super().__init__(dataset_id=dataset_id, dataset_name=dataset_name, dataset_version=dataset_version)


class Uri(_Fields):
    _defaults = {"path": None, "is_file": False}


class DataLocation(_Fields):
    """Where ``Data`` comes from: a ``dataset``, a datastore ``data_path`` or a ``uri``."""

    _defaults = {"dataset": None, "datapath": None, "uri": None}

    def __init__(self, dataset=None, datapath=None, uri=None, **kwargs):
        super().__init__(dataset=dataset, datapath=datapath or kwargs.pop("data_path", None), uri=uri, **kwargs)


class Data(_Fields):
    """v1 ``runconfig.Data``: an input (``data_location``) and how the job sees it (``mechanism``)."""

    _defaults = {"data_location": None, "mechanism": "mount", "environment_variable_name": None,
                 "path_on_compute": None, "overwrite": False, "options": None}

    @staticmethod
    def create(data_path=None, dataset=None, mechanism="mount", environment_variable_name=None, **kwargs):
        return Data(data_location=DataLocation(dataset=dataset, datapath=data_path), mechanism=mechanism,
                    environment_variable_name=environment_variable_name, **kwargs)


class GlobsOptions(_Fields):
    _defaults = {"glob_patterns": None}


class UploadOptions(_Fields):
    _defaults = {"overwrite": False, "source_globs": None}


class MountOptions(_Fields):
    _defaults = {"disable_metadata_cache": False, "read_only": False}


class RegistrationOptions(_Fields):
    _defaults = {"name": None, "description": None, "tags": None, "properties": None,
                 "dataset_registration_options": None}


class DatasetRegistrationOptions(_Fields):
    _defaults = {"additional_transformation": None}


class OutputOptions(_Fields):
    _defaults = {"path_on_compute": None, "registration_options": None, "upload_options": None, "mount_options": None}


class OutputData(_Fields):
    """v1 ``runconfig.OutputData``: where a job output goes (``output_location`` with a ``datapath``)."""

    _defaults = {"mechanism": "upload", "additional_options": None, "environment_variable_name": None,
                 "output_location": None}


class AzureContainerRegistry(ContainerRegistry):
    """v1 ``AzureContainerRegistry``: a ContainerRegistry in Azure (``address`` like ``myacr.azurecr.io``)."""


def _refused_section(name, why, replacement):
    def __init__(self, *args, **kwargs):
        refuse(name, why, replacement)

    return type(name, (), {"__init__": __init__, "__doc__": f"v1 ``{name}``: refused ({why})"})


ApplicationEndpointConfiguration = _refused_section(
    "ApplicationEndpointConfiguration", "v1 interactive endpoints are configured differently in v2.",
    "services={'jupyter': JupyterLabJobService(), 'ssh': SshJobService(ssh_public_keys=...)} on "
    "azure.ai.ml.command(...)")
DatacacheConfiguration = _refused_section(
    "DatacacheConfiguration", "v2 has no datacache stores.",
    "a ro_mount or download input: Input(type='uri_folder', path='azureml://datastores/...', mode='download')")
HdiConfiguration = _refused_section(
    "HdiConfiguration", "HDInsight compute has no v2 command-job equivalent.",
    "Azure ML v2 Spark jobs: azure.ai.ml.spark(...)")
SparkConfiguration = _refused_section(
    "SparkConfiguration", "Spark runs have no v2 command-job equivalent.",
    "Azure ML v2 Spark jobs: azure.ai.ml.spark(...)")
ParallelTaskConfiguration = _refused_section(
    "ParallelTaskConfiguration", "parallel-task runs have no v2 command-job equivalent.",
    "a v2 parallel job: azure.ai.ml.parallel.parallel_run_function(...)")
