"""v1 ``ScriptRunConfig``: a script (or command), its arguments, environment, target and distribution -> JobSpec."""

from __future__ import annotations

import logging
import os

from acpt_estimator import distribution as dist
from acpt_estimator.arguments import ArgumentBuilder, is_data
from acpt_estimator.job_checks import (check_argument_list, check_arguments, check_compute_target, check_entry_script,
                                       check_environment_variables, check_source_directory)
from acpt_estimator.v1.core.datastore import Datastore
from acpt_estimator.v1.data.data_reference import DataReference
from acpt_estimator.v1.data.datapath import DataPath
from acpt_estimator.v1.core.environment import Environment
from acpt_estimator.exceptions import RunConfigurationException, TrainingException, UserErrorException
from acpt_estimator.v1.core._runconfig_sections import Data, DataReferenceConfiguration, OutputData
from acpt_estimator.v1.core.runconfig import DEFAULT_MAX_RUN_DURATION_SECONDS, DockerConfiguration, RunConfiguration
from acpt_estimator.spec import ComputeSpec, JobSpec, Literal
from acpt_estimator._lazy import lazy_names

logger = logging.getLogger(__name__)

_DISTRIBUTED = (dist.MpiConfiguration, dist.PyTorchConfiguration, dist.TensorflowConfiguration)


class ScriptRunConfig:
    """v1 ``azureml.core.ScriptRunConfig``; the compute target defaults to ``'local'`` as in v1."""

    MAX_DURATION_SECONDS_DEFAULT = DEFAULT_MAX_RUN_DURATION_SECONDS
    DELIM = ","  # v1 joined argument lists for display with it

    def __init__(self, source_directory, script=None, arguments=None, run_config=None, _telemetry_values=None,
                 compute_target=None, environment=None, distributed_job_config=None, resume_from=None,
                 max_run_duration_seconds=DEFAULT_MAX_RUN_DURATION_SECONDS, command=None,
                 docker_runtime_config=None):
        self.source_directory = source_directory or "."
        self.script = script
        check_argument_list(arguments)
        check_compute_target(compute_target)
        self.arguments = list(arguments) if arguments is not None else None
        self.command = command
        if distributed_job_config is not None and not isinstance(distributed_job_config, _DISTRIBUTED):
            raise RunConfigurationException(
                "'distributed_job_config' must be an 'azureml.core.runconfig.TensorflowConfiguration', "
                "'azureml.core.runconfig.MpiConfiguration', or 'azureml.core.runconfig.PyTorchConfiguration' object. "
                f"Got {type(distributed_job_config).__name__}; e.g. "
                "PyTorchConfiguration(process_count=8, node_count=2).")
        if environment is not None and not isinstance(environment, Environment):
            raise UserErrorException(
                f"ScriptRunConfig environment={environment!r} must be an Environment, e.g. "
                "Environment.get(ws, 'AzureML-acpt-pytorch-2.8-cuda12.6').")
        if run_config is not None:
            self.run_config = self._adopt(run_config, compute_target, environment, distributed_job_config,
                                          max_run_duration_seconds, docker_runtime_config)
        else:
            rc = RunConfiguration()
            rc.target = compute_target if compute_target is not None else "local"
            rc.environment = environment if environment is not None else Environment(name="default-environment")
            rc.max_run_duration_seconds = max_run_duration_seconds
            if distributed_job_config is not None:
                _set_distributed(rc, distributed_job_config)
            if docker_runtime_config is not None:
                rc.docker = docker_runtime_config
            self.run_config = rc
        if self.script and self.command:
            raise UserErrorException(
                f"ScriptRunConfig got both script={self.script!r} and command={self.command!r}; pass one: "
                "script= with arguments=, or command= with the whole command line.")
        if resume_from is not None and not isinstance(resume_from, DataPath):
            raise UserErrorException(
                f"resume_from parameter should be of type DataPath. Found {type(resume_from)}. "
                "Pass DataPath(datastore, 'path/to/checkpoints').")
        check_source_directory(self.source_directory)
        check_entry_script(self.script, "script")
        check_arguments([str(a) for a in self.arguments or [] if isinstance(a, (str, int, float))])
        self.resume_from = resume_from
        self.run_config.script, self.run_config.command = self.script, self.command
        self.run_config.arguments = list(self.arguments or [])

    @property
    def identity(self):
        """``run_config.identity``; not carried into v2 jobs (a warning at submit names v2's ``identity=``)."""
        return self.run_config.identity

    @identity.setter
    def identity(self, value):
        self.run_config.identity = value

    def _adopt(self, rc, compute_target, environment, distributed_job_config, max_run_duration_seconds, docker):
        if not isinstance(rc, RunConfiguration):
            raise UserErrorException(
                f"run_config={type(rc).__name__} is not a RunConfiguration; build one with "
                "acpt_estimator.v1.core.runconfig.RunConfiguration() (azureml.core.runconfig.RunConfiguration).")
        if max_run_duration_seconds != DEFAULT_MAX_RUN_DURATION_SECONDS or any(
                x is not None for x in (compute_target, environment, distributed_job_config, docker)):
            logger.warning("If 'run_config' is specified, the following parameters will be ignored: "
                           "'compute_target', 'environment', 'distributed_job_config', 'max_run_duration_seconds', "
                           "and 'docker_runtime_config'.")
        for field in ("script", "arguments", "command"):
            mine, theirs = getattr(self, field), getattr(rc, field)
            if theirs and mine:
                logger.warning("'%s' was given both to ScriptRunConfig and in 'run_config'; the ScriptRunConfig "
                               "value takes precedence.", field)
            elif theirs and not mine:
                setattr(self, field, list(theirs) if field == "arguments" else theirs)
        return rc

    def _submit(self, experiment, tags=None, **kwargs):
        """``Experiment.submit``: the run remembers this configuration (``get_run_config_from_script_run``)."""
        from acpt_estimator.v1.core.experiment import submit_spec

        run = submit_spec(self.to_job_spec(experiment_name=experiment.name, tags=tags, **kwargs), experiment)
        run._script_run_config = self
        return run

    # ---- translation --------------------------------------------------------------------------------
    def to_job_spec(self, *, experiment_name=None, tags=None, **overrides) -> JobSpec:
        """The backend-neutral job; ScriptRunConfig takes no per-submit overrides (v1 had none either)."""
        if overrides:
            raise UserErrorException(
                f"Experiment.submit(ScriptRunConfig, {', '.join(sorted(overrides))}=...) is not supported; set those "
                "values on the ScriptRunConfig (arguments=, environment=, compute_target=) before submitting.")
        rc = self.run_config
        if not self.script and not self.command:
            raise UserErrorException(
                "ScriptRunConfig needs script='train.py' (relative to source_directory) or command=[...] to run.")
        builder = ArgumentBuilder()
        tokens = [builder.add_data(a) if is_data(a) else Literal(str(a)) for a in self.arguments or []]
        if self.resume_from is not None:
            reference = self.resume_from.create_data_reference("MODEL_LOCATION")
            tokens += [Literal("--resume-from"), builder.add_data(reference)]
        for name, value in list(rc.data_references.items()) + list(rc.data.items()) + list(rc.output_data.items()):
            builder.add_data(_run_config_data(name, value))
        _warn_unmapped(rc)
        env = rc.environment if rc.environment is not None else Environment(name="default-environment")
        check_environment_variables(env.environment_variables, "environment.environment_variables")
        check_environment_variables(rc.environment_variables, "run_config.environment_variables")
        variables = {str(k): str(v) for k, v in (env.environment_variables or {}).items()}
        variables.update({str(k): str(v) for k, v in (rc.environment_variables or {}).items()})
        return JobSpec(
            source_directory=os.path.abspath(self.source_directory),
            entry_script=self.script,
            arguments=tuple(tokens),
            command=_command_text(self.command),
            inputs=tuple(builder.inputs.values()),
            outputs=tuple(builder.outputs.values()),
            environment_variables=variables,
            distribution=_distribution(rc),
            environment=_environment_spec(env, self.source_directory),
            compute=_compute(rc),
            max_run_duration_seconds=rc.max_run_duration_seconds,
            shm_size=_shm_size(rc, env),
            experiment_name=experiment_name,
            tags=dict(tags or {}),
        )

    def __repr__(self) -> str:
        return (f"ScriptRunConfig(source_directory={self.source_directory!r}, script={self.script!r}, "
                f"compute_target={self.run_config.target!r})")


def _warn_unmapped(rc: RunConfiguration) -> None:
    """run_config fields with no JobSpec field: said, never dropped silently."""
    docker = rc.docker if isinstance(rc.docker, DockerConfiguration) else None
    unmapped = {
        "docker.arguments": (bool(docker and docker.arguments), "docker_args=... on azure.ai.ml.command(...)"),
        "credential_passthrough": (bool(rc.credential_passthrough), "identity=UserIdentityConfiguration() on "
                                   "azure.ai.ml.command(...)"),
        "identity": (rc.identity is not None, "identity=... on azure.ai.ml.command(...)"),
        "services": (bool(rc.services), "services={...} (JupyterLabJobService, SshJobService) on azure.ai.ml.command"),
    }
    for field, (used, replacement) in unmapped.items():
        if used:
            logger.warning("run_config.%s is not carried into the v2 job by acpt-estimator; in a native v2 job use %s "
                           "(acpt-estimator convert writes one to edit).", field, replacement)


def _environment_spec(env, source_directory):
    if not isinstance(env, Environment):
        raise UserErrorException(f"run_config.environment={env!r} must be an azureml.core.Environment, e.g. "
                                 "Environment.from_conda_specification('env', 'conda.yml').")
    return env._to_spec(source_directory)


def _run_config_data(name: str, value):
    """A ``run_config.data_references``/``data``/``output_data`` entry as the data object arguments use."""
    if is_data(value):
        return value
    if isinstance(value, DataReferenceConfiguration):
        return DataReference(Datastore(None, value.datastore_name or "workspaceblobstore"), name,
                             value.path_on_datastore, value.mode, value.path_on_compute, value.overwrite)
    location = getattr(value, "data_location", None) or getattr(value, "output_location", None)
    data_path = getattr(location, "datapath", None)
    if isinstance(value, (Data, OutputData)) and data_path is not None:
        mode = "upload" if isinstance(value, OutputData) else (value.mechanism or "mount").lower()
        return DataReference(Datastore(None, data_path.datastore_name or "workspaceblobstore"),
                             value.environment_variable_name or name, data_path.relative_path,
                             mode if mode in ("mount", "download", "upload", "direct") else "mount")
    raise UserErrorException(
        f"run_config data entry {name!r}={value!r} cannot be translated here (a dataset in run_config.data needs its "
        "workspace); use DataReferenceConfiguration(datastore_name, mode, path_on_datastore), or pass data as "
        "ScriptRunConfig arguments "
        "(dataset.as_named_input('x').as_mount() or datastore.path('p').as_mount()).")


def _set_distributed(rc: RunConfiguration, cfg) -> None:
    """v1 ``_set_distributed_job_config``: the framework/communicator pair and node count a config implies."""
    if isinstance(cfg, dist.PyTorchConfiguration):
        rc.framework, rc.communicator, rc.pytorch = "PyTorch", cfg.communication_backend, cfg
        rc.node_count = cfg.node_count
    elif isinstance(cfg, dist.MpiConfiguration):
        rc.framework, rc.communicator, rc.mpi, rc.node_count = "Python", "IntelMpi", cfg, cfg.node_count
    else:
        rc.framework, rc.communicator, rc.tensorflow = "TensorFlow", "ParameterServer", cfg
        rc.node_count = cfg.worker_count


def _distribution(rc: RunConfiguration):
    cfg = rc._distributed_config()
    if cfg is None:
        if rc.node_count and rc.node_count > 1:
            raise TrainingException(
                f"run_config.node_count={rc.node_count} needs a distributed configuration; pass "
                "distributed_job_config=PyTorchConfiguration(...) or MpiConfiguration(...).")
        return dist.Distribution()
    if isinstance(cfg, dist.MpiConfiguration):
        return dist.from_mpi_configuration(cfg)
    if isinstance(cfg, dist.PyTorchConfiguration):
        return dist.from_pytorch_configuration(cfg, estimator_node_count=cfg.node_count)
    raise TrainingException(
        "TensorflowConfiguration (parameter-server training) cannot run a PyTorch job on ACPT; use "
        "PyTorchConfiguration(...) or MpiConfiguration(...) as distributed_job_config.")


def _compute(rc: RunConfiguration) -> ComputeSpec:
    target = rc.target
    name = target if isinstance(target, str) or target is None else getattr(target, "name", str(target))
    if name == "amlcompute":  # v1 run-based compute: a cluster made for the run -> v2 serverless compute
        name = None
    vm_size = rc.amlcompute.vm_size or getattr(rc.kubernetescompute, "instance_type", None)
    return ComputeSpec(target=name, vm_size=vm_size, vm_priority=rc.amlcompute.vm_priority)


def _shm_size(rc: RunConfiguration, env: Environment):
    docker = rc.docker if isinstance(rc.docker, DockerConfiguration) else None
    return (docker.shm_size if docker else None) or getattr(env.docker, "shm_size", None)


def _command_text(command):
    if command is None:
        return None
    if isinstance(command, (list, tuple)):
        return " ".join(str(part) for part in command)  # v1 joins a command list with spaces, unquoted
    return str(command)


def submit(script_run_config, workspace, experiment_name, run_id=None, _parent_run_id=None,
           credential_passthrough=None):
    """v1's submit function behind ``Experiment.submit(ScriptRunConfig)``."""
    if run_id is not None or _parent_run_id is not None:
        logger.warning("submit(run_id=...) is not used: v2 names the job (the run id is returned).")
    from acpt_estimator.v1.core.experiment import Experiment

    if credential_passthrough:  # the run configuration's flag, translated (or said) like any other field
        script_run_config.run_config.credential_passthrough = True
    return Experiment(workspace, experiment_name).submit(script_run_config)


def get_run_config_from_script_run(script_run):
    """The RunConfiguration a submitted ScriptRunConfig run was made from (kept on the run when submitted here)."""
    config = getattr(script_run, "_script_run_config", None)
    if isinstance(config, ScriptRunConfig):
        return config.run_config
    raise UserErrorException(
        f"get_run_config_from_script_run({script_run!r}): the run does not carry the configuration it was submitted "
        "with (runs reopened by id do not). Keep the ScriptRunConfig and read its .run_config.")


# v1 names this module also exported, defined elsewhere: resolved on first use (v1-importable.json).
__getattr__, __dir__ = lazy_names(__name__, {
    **dict.fromkeys(["Data", "DatacacheConfiguration", "DockerConfiguration", "EnvironmentDefinition",
        "MpiConfiguration", "PyTorchConfiguration", "RunConfiguration", "TensorflowConfiguration"],
        "acpt_estimator.v1.core.runconfig"),
    **dict.fromkeys(["RunConfigurationException", "UserErrorException"], "acpt_estimator.exceptions"),
    **dict.fromkeys(["DataPath", "DataPathComputeBinding"], "acpt_estimator.v1.data.datapath"),
    "DatacacheConsumptionConfig": "acpt_estimator.v1.data.datacache_consumption_config",
})
