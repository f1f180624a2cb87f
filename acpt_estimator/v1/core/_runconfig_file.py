"""``RunConfiguration`` <-> v1's ``.runconfig`` YAML (camelCase keys, conda file beside it)."""

from __future__ import annotations

import os

import yaml

from acpt_estimator.distribution import MpiConfiguration, PyTorchConfiguration, TensorflowConfiguration
from acpt_estimator.exceptions import UserErrorException
from acpt_estimator.v1.core._runconfig_sections import (AmlComputeConfiguration, DataReferenceConfiguration,
                                                        DockerConfiguration, HistoryConfiguration)
from acpt_estimator.v1.core.conda_dependencies import CondaDependencies
from acpt_estimator.v1.core.environment import Environment

EXTENSION = ".runconfig"
CONDA_FILE = "conda_dependencies.yml"


def _config_dir(path: str) -> str:
    """v1 keeps project files in ``.azureml/`` (older projects: ``aml_config/``)."""
    return "aml_config" if os.path.isdir(os.path.join(path, "aml_config")) and not os.path.isdir(
        os.path.join(path, ".azureml")) else ".azureml"


def _target_name(target):
    return target if isinstance(target, str) or target is None else getattr(target, "name", str(target))


def to_dict(rc) -> dict:
    env = rc.environment._to_dict() if rc.environment is not None else None
    if env is not None:
        env["python"].pop("condaDependencies", None)
    return {
        "script": rc.script, "arguments": [str(a) for a in rc.arguments], "command": rc.command,
        "target": _target_name(rc.target), "framework": rc.framework, "communicator": rc.communicator,
        "maxRunDurationSeconds": rc.max_run_duration_seconds, "nodeCount": rc.node_count, "priority": rc.priority,
        "environmentVariables": dict(rc.environment_variables), "environment": env,
        "history": {"outputCollection": rc.history.output_collection,
                    "snapshotProject": rc.history.snapshot_project,
                    "directoriesToWatch": list(rc.history.directories_to_watch or [])},
        "docker": {"useDocker": rc.docker.use_docker, "sharedVolumes": rc.docker.shared_volumes,
                   "shmSize": rc.docker.shm_size, "arguments": list(rc.docker.arguments)},
        "mpi": {"processCountPerNode": rc.mpi.process_count_per_node, "nodeCount": rc.mpi.node_count},
        "pytorch": {"communicationBackend": rc.pytorch.communication_backend,
                    "processCount": rc.pytorch.process_count, "nodeCount": rc.pytorch.node_count},
        "tensorflow": {"workerCount": rc.tensorflow.worker_count,
                       "parameterServerCount": rc.tensorflow.parameter_server_count},
        "amlcompute": {"vmSize": rc.amlcompute.vm_size, "vmPriority": rc.amlcompute.vm_priority,
                       "clusterMaxNodeCount": rc.amlcompute._cluster_max_node_count},
        "dataReferences": {name: {"dataStoreName": ref.datastore_name, "mode": ref.mode,
                                  "pathOnDataStore": ref.path_on_datastore, "pathOnCompute": ref.path_on_compute,
                                  "overwrite": ref.overwrite}
                           for name, ref in rc.data_references.items() if isinstance(ref, DataReferenceConfiguration)},
        "sourceDirectoryDataStore": rc.source_directory_data_store,
        "credentialPassthrough": rc.credential_passthrough,
    }


def from_dict(data: dict, conda: CondaDependencies | None = None):
    from acpt_estimator.v1.core.runconfig import RunConfiguration

    rc = RunConfiguration(script=data.get("script"), arguments=data.get("arguments"), framework=data.get("framework"),
                          communicator=data.get("communicator"), command=data.get("command"))
    rc.target = data.get("target") or "local"
    rc.max_run_duration_seconds = data.get("maxRunDurationSeconds") or rc.max_run_duration_seconds
    rc.node_count = data.get("nodeCount") or 1
    rc.priority = data.get("priority")
    rc.environment_variables = data.get("environmentVariables") or {}
    if data.get("environment"):
        rc.environment = Environment._from_dict(data["environment"])
    if conda is not None:
        rc.environment.python.conda_dependencies = conda
    history = data.get("history") or {}
    rc.history = HistoryConfiguration(output_collection=history.get("outputCollection", True),
                                      snapshot_project=history.get("snapshotProject", True),
                                      directories_to_watch=history.get("directoriesToWatch") or ["logs"])
    docker = data.get("docker") or {}
    rc.docker = DockerConfiguration(docker.get("useDocker"), docker.get("shmSize"), docker.get("sharedVolumes"),
                                    docker.get("arguments"))
    mpi, pt, tf = data.get("mpi") or {}, data.get("pytorch") or {}, data.get("tensorflow") or {}
    rc.mpi = MpiConfiguration(mpi.get("processCountPerNode", 1), mpi.get("nodeCount", 1))
    rc.pytorch = PyTorchConfiguration(pt.get("communicationBackend") or "Nccl", pt.get("processCount"),
                                      pt.get("nodeCount") or 1)
    rc.tensorflow = TensorflowConfiguration(tf.get("workerCount", 1), tf.get("parameterServerCount", 1))
    aml = data.get("amlcompute") or {}
    rc.amlcompute = AmlComputeConfiguration(vm_size=aml.get("vmSize"), vm_priority=aml.get("vmPriority"),
                                            _cluster_max_node_count=aml.get("clusterMaxNodeCount") or 1)
    rc.data_references = {
        name: DataReferenceConfiguration(ref.get("dataStoreName"), ref.get("mode") or "mount",
                                         ref.get("pathOnDataStore"), ref.get("pathOnCompute"),
                                         bool(ref.get("overwrite")))
        for name, ref in (data.get("dataReferences") or {}).items()}
    rc.source_directory_data_store = data.get("sourceDirectoryDataStore")
    rc.credential_passthrough = bool(data.get("credentialPassthrough"))
    return rc


def save(rc, path, name, separate_environment_yaml=False) -> None:
    path = os.path.normpath(path or rc._path or os.getcwd())
    if os.path.isdir(path):
        name = name or rc._name
        if not name:
            raise UserErrorException("RunConfiguration.save(path=..., name=...) needs a name for a project folder, "
                                     "e.g. rc.save(path='.', name='train') writes .azureml/train.runconfig.")
        folder = os.path.join(path, _config_dir(path))
        file = os.path.join(folder, name if name.endswith(EXTENSION) else name + EXTENSION)
        conda_rel = f"{_config_dir(path)}/{CONDA_FILE}"
        base = path
    else:
        folder = os.path.dirname(path) or "."
        if not os.path.isdir(folder):
            raise UserErrorException(f"RunConfiguration.save(path={path!r}): folder {folder!r} does not exist. Pass a "
                                     "project folder (with name=) or a file path in an existing folder.")
        file, conda_rel, base = path, CONDA_FILE, folder
    os.makedirs(folder, exist_ok=True)
    data = to_dict(rc)
    env = data["environment"]
    if env is not None and not env["python"].get("condaDependenciesFile"):
        env["python"]["condaDependenciesFile"] = conda_rel
    if separate_environment_yaml and env is not None:
        env_file = os.path.join(folder, f"{rc.environment.name}.environment.yml".replace("/", "_"))
        _write(env_file, yaml.safe_dump(env, sort_keys=False))
        data["environment"] = os.path.basename(env_file)
    _write(file, yaml.safe_dump(data, sort_keys=False))
    if rc.environment is not None:
        rc.environment.python.conda_dependencies.save(os.path.join(base, env["python"]["condaDependenciesFile"]
                                                                   if env else conda_rel))
    rc._path, rc._name = (path, name) if os.path.isdir(path) else (rc._path, rc._name)


def load(path, name=None):
    path = os.path.normpath(path or os.getcwd())
    if os.path.isfile(path):
        candidates, base = [path], os.path.dirname(path)
    else:
        if not name:
            raise UserErrorException(f"RunConfiguration.load(path={path!r}) needs name= for a project folder, or a "
                                     "path naming the .runconfig file.")
        stem = name if name.endswith(EXTENSION) else name + EXTENSION
        candidates = [os.path.join(path, d, n) for d in (".azureml", "aml_config") for n in (name, stem)]
        candidates.append(os.path.join(path, stem))
        base = path
    file = next((c for c in candidates if os.path.isfile(c)), None)
    if file is None:
        raise UserErrorException(f"Failed to load RunConfiguration from path={path} name={name}: none of "
                                 f"{[os.path.relpath(c, path) if not os.path.isfile(path) else c for c in candidates]} "
                                 "exists. Save one with rc.save(path, name).")
    with open(file, encoding="utf-8") as handle:
        data = yaml.safe_load(handle) or {}
    if not isinstance(data, dict):
        raise UserErrorException(f"{file} is not a RunConfiguration YAML mapping.")
    if isinstance(data.get("environment"), str):  # saved with separate_environment_yaml=True
        with open(os.path.join(os.path.dirname(file), data["environment"]), encoding="utf-8") as handle:
            data["environment"] = yaml.safe_load(handle)
    conda_rel = ((data.get("environment") or {}).get("python") or {}).get("condaDependenciesFile")
    conda = None
    for root in (base, os.path.dirname(file)):
        if conda_rel and os.path.isfile(os.path.join(root, conda_rel)):
            conda = CondaDependencies(os.path.join(root, conda_rel))
            break
    rc = from_dict(data, conda)
    if rc.environment is not None:
        rc.environment.python.conda_dependencies_file = None  # loaded into conda_dependencies above
    rc._path, rc._name = base, os.path.basename(file)[:-len(EXTENSION)] if file.endswith(EXTENSION) else name
    return rc


def _write(file: str, text: str) -> None:
    with open(file, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(text)
