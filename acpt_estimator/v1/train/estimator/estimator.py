"""The v1 ``Estimator`` and ``PyTorch`` estimators: v1 parameters and validation, ``to_job_spec()``."""

from __future__ import annotations

import copy
import logging
import os

import attrs

from acpt_estimator import distribution as dist
from acpt_estimator.arguments import build_arguments
from acpt_estimator.v1.core.conda_dependencies import CondaDependencies
from acpt_estimator.v1.core.environment import Environment
from acpt_estimator.environments import EnvironmentRequest, requirement_name, resolve, usable_versions
from acpt_estimator.exceptions import ComputeTargetException, TrainingException, UserErrorException
from acpt_estimator.job_checks import (check_arguments, check_compute_target, check_entry_script,
                                       check_environment_variables, check_shm_size, check_source_directory)
from acpt_estimator.package_specs import package_list
from acpt_estimator.spec import ComputeSpec, JobSpec, Literal

logger = logging.getLogger(__name__)

_OVERRIDABLE = ("script_params", "inputs", "source_directory_data_store")
_VM_PRIORITIES = ("dedicated", "lowpriority")


class _EstimatorBase:
    """Shared by ``Estimator`` and ``PyTorch``: stores v1 parameters, validates like v1, builds a JobSpec."""

    FRAMEWORK_NAME = "Estimator"
    _SUPPORTED_BACKENDS = ["mpi"]
    _installs_torch = False

    def _init(self, source_directory, params: dict, framework_version=None):
        self.source_directory = source_directory or "."
        p = {k: _copied(v) for k, v in params.items()}  # never mutate the caller's lists and dicts
        self._params = p
        self._validate(p)
        check_source_directory(self.source_directory)
        check_entry_script(p["entry_script"])
        check_environment_variables(p["environment_variables"])
        check_compute_target(p["compute_target"])
        check_shm_size(p["shm_size"])
        package_list(p["pip_packages"], "pip_packages")
        package_list(p["conda_packages"], "conda_packages", "['numpy=1.26']")
        self.framework_version = framework_version
        self._pip_requirements = self._read_pip_requirements(p)
        self._conda_file_text = self._read_conda_file(p)
        self._check_resume_from(p["resume_from"])
        # Build the pieces once so that bad inputs fail here, at construction, as in v1.
        self._tokens, self._inputs, self._outputs = self._arguments(p["script_params"], p["inputs"])
        self._environment = self._resolve_environment()
        # v1's est.conda_dependencies / est.run_config: objects whose later changes reach the job.
        self._conda = self._initial_conda_dependencies()
        self._conda_as_built = copy.deepcopy(self._conda)
        self._run_config = None
        if p["environment_variables"] is None:
            p["environment_variables"] = {}
        self._distribution = dist.normalise(
            node_count=p["node_count"], process_count_per_node=p["process_count_per_node"],
            distributed_backend=p["distributed_backend"], distributed_training=p["distributed_training"])

    # ---- v1 validation, in v1's order (spec/v1-api.md §1.2) -------------------------------------------
    def _validate(self, p: dict) -> None:
        image = p["custom_docker_image"] or p["custom_docker_base_image"]
        if not p["use_docker"] and image:
            raise TrainingException(
                "If use_docker parameter is set to false, custom_docker_image or custom_docker_base_image parameter "
                f"is not allowed. Got use_docker=False with custom_docker_image={image!r}; drop one of them.")
        if p["environment_definition"] is not None:
            self._check_environment_definition_alone(p)
        conda_file = p["conda_dependencies_file"] or p["conda_dependencies_file_path"]
        if conda_file and (p["pip_packages"] or p["pip_requirements_file"] or p["pip_requirements_file_path"]
                           or p["conda_packages"]):
            raise TrainingException(
                "If conda_dependencies_file parameter is specified, the following parameters cannot be specified: "
                f"pip_packages, pip_requirements_file, conda_packages. Got conda_dependencies_file={conda_file!r}; "
                "put those packages into the conda file instead.")
        dist.check_counts(p["node_count"], p["process_count_per_node"])
        dist.check_backend(p["distributed_backend"], p["distributed_training"], self._SUPPORTED_BACKENDS,
                           self.FRAMEWORK_NAME)
        if p["user_managed"] and (p["conda_packages"] or p["pip_packages"] or conda_file
                                  or p["pip_requirements_file"] or p["pip_requirements_file_path"]):
            raise UserErrorException(
                "If user_managed is True, then conda_packages, conda_dependencies_file, pip_packages or "
                "pip_requirements_file cannot be specified. Got user_managed=True; either drop the packages "
                "or set user_managed=False.")
        if p["distributed_backend"] is None and p["distributed_training"] is None and (
                p["node_count"] > 1 or p["process_count_per_node"] > 1):
            dist.normalise(node_count=p["node_count"], process_count_per_node=p["process_count_per_node"],
                           distributed_backend=None, distributed_training=None)
        target = p["compute_target"]
        if getattr(target, "type", None) == "HDInsight":
            raise ComputeTargetException(
                f"Unsupported compute target type. Type={target.type}. compute_target={getattr(target, 'name', target)!r} "
                "cannot run training jobs; use an AmlCompute cluster name or vm_size= for serverless compute.")
        # v1 rules 10-11 refused compute names for distributed jobs; v2 runs them, so they are not checked.
        if p["custom_docker_image"] and p["custom_docker_base_image"]:
            raise TrainingException(
                "'custom_docker_base_image' parameter will be deprecated. Please use 'custom_docker_image' only. "
                "Both were given; keep custom_docker_image.")
        if p["vm_priority"] is not None and p["vm_priority"] not in _VM_PRIORITIES:
            raise TrainingException(
                f"vm_priority={p['vm_priority']!r} is not supported; use one of {list(_VM_PRIORITIES)}.")
        if p["max_run_duration_seconds"] is not None and (
                not isinstance(p["max_run_duration_seconds"], int) or p["max_run_duration_seconds"] < 1):
            raise TrainingException(
                f"max_run_duration_seconds={p['max_run_duration_seconds']!r} must be a whole number of seconds >= 1.")

    def _check_environment_definition_alone(self, p: dict) -> None:
        alias = {"pip_requirements_file": "pip_requirements_file_path",
                 "conda_dependencies_file": "conda_dependencies_file_path"}
        names = ["pip_packages", "pip_requirements_file", "conda_packages", "conda_dependencies_file",
                 "custom_docker_image", "image_registry_details", "use_gpu", "user_managed", "shm_size"]
        given = [n for n in names + ["environment_variables"] if p.get(n)]
        given += [alias[n] for n in alias if p.get(alias[n])]
        if given:
            listed = [alias[n] if p.get(alias.get(n, "")) else n for n in names]
            raise TrainingException(
                "If environment_definition parameter is specified, the following parameters cannot be specified: "
                f"{', '.join(listed)}. Got environment_definition together with {given}; move those settings "
                "into the Environment object.")

    def _read_user_file(self, relative: str | None, what: str) -> str | None:
        if not relative:
            return None
        path = os.path.join(self.source_directory, relative)
        if not os.path.isfile(path):
            raise UserErrorException(
                f"{path} path doesn't exist. The {what} file should be inside the project folder. "
                f"Put {os.path.basename(relative)} under source_directory={self.source_directory!r} and pass its "
                "path relative to it.")
        with open(path, encoding="utf-8") as handle:
            return handle.read()

    def _read_pip_requirements(self, p: dict) -> tuple:
        text = self._read_user_file(p["pip_requirements_file"] or p["pip_requirements_file_path"], "pip requirements")
        if text is None:
            return ()
        return tuple(ln.strip() for ln in text.splitlines() if ln.strip() and not ln.strip().startswith("#"))

    def _read_conda_file(self, p: dict) -> str | None:
        return self._read_user_file(p["conda_dependencies_file"] or p["conda_dependencies_file_path"], "conda dependencies")

    @staticmethod
    def _check_resume_from(resume_from) -> None:
        if resume_from is None:
            return
        from acpt_estimator.v1.data.datapath import DataPath  # (only here: the v1 data classes cost a driver ~10 ms)

        if not isinstance(resume_from, DataPath):
            raise UserErrorException(
                f"resume_from parameter should be of type DataPath. Found {type(resume_from)}. "
                "Pass DataPath(datastore, 'path/to/checkpoints').")

    def _arguments(self, script_params, inputs):
        extra = []
        resume_from = self._params["resume_from"]
        if resume_from is not None:
            ref = resume_from.create_data_reference("MODEL_LOCATION")
            extra = ["--resume-from", ref]
        store = self._params["source_directory_data_store"]
        built = build_arguments(script_params, list(inputs or []) + ([store] if store is not None else []), extra)
        check_arguments([t.value for t in built[0] if isinstance(t, Literal)])
        return built

    def _resolve_environment(self, conda=None):
        env_def = self._params["environment_definition"]
        if env_def is not None:
            if not isinstance(env_def, Environment):
                raise UserErrorException(f"environment_definition={env_def!r} must be an azureml.core.Environment, "
                                         "e.g. Environment.from_conda_specification('env', 'conda.yml').")
            return env_def._to_spec(self.source_directory)
        request = self._environment_request(self.framework_version)
        if conda is not None:  # est.conda_dependencies was changed after construction
            if request.conda_file_text is not None:
                request = attrs.evolve(request, conda_file_text=conda.serialize_to_string())
            else:
                request = attrs.evolve(
                    request, pip_packages=tuple(conda.pip_options) + tuple(conda.pip_packages),
                    conda_packages=tuple(c for c in conda.conda_packages if requirement_name(c) != "python"))
        return resolve(request)

    def _initial_conda_dependencies(self):
        env_def = self._params["environment_definition"]
        if env_def is not None:
            return env_def.python.conda_dependencies  # v1: the definition's own object
        if self._conda_file_text is not None:
            return CondaDependencies._from_yaml_text(self._conda_file_text, "conda_dependencies_file")
        return CondaDependencies.create(pip_packages=list(self._params["pip_packages"] or []),
                                        conda_packages=list(self._params["conda_packages"] or []))

    def _current_environment(self):
        if self._params["environment_definition"] is not None:
            return self._resolve_environment()
        if self._conda != self._conda_as_built:
            return self._resolve_environment(self._conda)
        return self._environment

    def _environment_request(self, framework_version) -> EnvironmentRequest:
        p = self._params
        if p["custom_docker_base_image"] and not p["custom_docker_image"]:
            logger.warning("'custom_docker_base_image' parameter will be deprecated. Please use 'custom_docker_image' instead.")
        # v1 arguments with no v2 field: said once, never dropped silently.
        if p["image_registry_details"] is not None:
            logger.warning("image_registry_details is not used: v2 jobs pull images with the workspace's identity. "
                           "Attach the registry to the workspace (or grant its identity AcrPull) instead.")
        if not p["use_docker"]:
            logger.warning("use_docker=False has no v2 equivalent: v2 jobs always run in a container (locally, "
                           "acpt-estimator runs in this Python environment either way).")
        return EnvironmentRequest(
            framework_version=framework_version if self._installs_torch else None,
            use_gpu=bool(p["use_gpu"]),
            custom_docker_image=p["custom_docker_image"] or p["custom_docker_base_image"],
            user_managed=bool(p["user_managed"]),
            conda_packages=tuple(p["conda_packages"] or ()),
            pip_packages=tuple(p["pip_packages"] or ()),
            pip_requirements=self._pip_requirements,
            conda_file_text=self._conda_file_text)

    # ---- the public surface -------------------------------------------------------------------------
    @property
    def run_config(self):
        """v1's RunConfiguration of this estimator. Its environment's conda dependencies are
        ``est.conda_dependencies``, and changes to them, to ``target``, ``environment_variables`` and
        ``max_run_duration_seconds`` reach the job."""
        if self._run_config is None:
            self._run_config = self._make_run_config()
        return self._run_config

    @property
    def conda_dependencies(self):
        """v1's ``CondaDependencies`` of the job's environment: edit it (``add_pip_package``,
        ``remove_conda_package``, ...) before submitting and the job's environment follows."""
        return self._conda

    def _make_run_config(self):
        from acpt_estimator.v1.core.runconfig import RunConfiguration

        p = self._params
        rc = RunConfiguration(script=p["entry_script"], arguments=[str(a) for a in _flat(p["script_params"])])
        rc.target = p["compute_target"] if p["compute_target"] is not None else "amlcompute"
        rc.node_count = self._distribution.node_count
        rc.max_run_duration_seconds = p["max_run_duration_seconds"]
        rc._environment_variables = p["environment_variables"]  # the same dict: changes reach the job
        rc.docker.shm_size = p["shm_size"]
        rc.amlcompute.vm_size, rc.amlcompute.vm_priority = p["vm_size"], p["vm_priority"]
        d = self._distribution
        if d.kind == "mpi":
            rc.framework, rc.communicator = "Python", "IntelMpi"
            rc.mpi = dist.MpiConfiguration(d.process_count_per_node, d.node_count)
        elif d.kind == "pytorch":
            rc.framework, rc.communicator = "PyTorch", (d.backend or "nccl").capitalize()
            rc.pytorch = dist.PyTorchConfiguration(d.backend or "nccl", d.world_size, d.node_count)
        env = p["environment_definition"]
        if env is None:
            env = Environment("acpt-estimator-environment")
            env.python.conda_dependencies = self._conda
            env.python.user_managed_dependencies = bool(p["user_managed"])
            env.docker.base_image = p["custom_docker_image"] or p["custom_docker_base_image"] or self._environment.image
        rc.environment = env
        self._run_config_as_built = _fixed_fields(rc)
        return rc

    def to_job_spec(self, *, experiment_name=None, tags=None, **overrides) -> JobSpec:
        """The backend-neutral job; ``overrides`` are v1's per-submit script_params/inputs/data store."""
        unknown = sorted(set(overrides) - set(_OVERRIDABLE))
        if unknown:
            raise TrainingException(
                f"{unknown} parameters cannot be overridden. Allowed parameters are: script_params, inputs and "
                "source_directory_data_store.")
        p = self._params
        tokens, inputs, outputs = self._tokens, self._inputs, self._outputs
        if overrides:
            saved = dict(p)
            p.update({k: _copied(v) for k, v in overrides.items()})
            try:
                tokens, inputs, outputs = self._arguments(p["script_params"], p["inputs"])
            finally:
                self._params = saved
        entry = p["entry_script"]
        if not entry:
            raise TrainingException(
                "entry_script is required to run a job. Pass entry_script='train.py' (relative to source_directory).")
        target = p["compute_target"]
        max_run = p["max_run_duration_seconds"]
        if self._run_config is not None:  # est.run_config.target / .max_run_duration_seconds set by the user
            rc_target = None if self._run_config.target == "amlcompute" else self._run_config.target
            target, max_run = rc_target, self._run_config.max_run_duration_seconds
            changed = sorted(k for k, v in _fixed_fields(self._run_config).items() if v != self._run_config_as_built[k])
            if changed:
                logger.warning("est.run_config.%s changed after the estimator was built and is not used; pass the "
                               "value to %s(...) instead (node_count=, distributed_training=, shm_size=, vm_size=).",
                               ", ".join(changed), type(self).__name__)
        target_name = target if isinstance(target, str) or target is None else getattr(target, "name", str(target))
        env_vars = {k: str(v) for k, v in (p["environment_variables"] or {}).items()}
        env_vars.update(self._framework_environment_variables())
        return JobSpec(
            source_directory=os.path.abspath(self.source_directory),
            entry_script=entry,
            arguments=tokens,
            inputs=inputs,
            outputs=outputs,
            environment_variables=env_vars,
            distribution=self._distribution,
            environment=self._current_environment(),
            compute=ComputeSpec(target=target_name, vm_size=p["vm_size"], vm_priority=p["vm_priority"]),
            max_run_duration_seconds=max_run,
            shm_size=p["shm_size"] or (self._environment_definition_shm()),
            experiment_name=experiment_name,
            display_name=None,
            tags=dict(tags or {}),
        )

    def _environment_definition_shm(self):
        env_def = self._params["environment_definition"]
        return env_def.docker.shm_size if env_def is not None else None

    def _framework_environment_variables(self) -> dict:
        env_def = self._params["environment_definition"]
        return dict(env_def.environment_variables) if env_def is not None else {}

    def __repr__(self) -> str:
        return (f"{type(self).__name__}(source_directory={self.source_directory!r}, "
                f"entry_script={self._params['entry_script']!r}, compute_target={self._params['compute_target']!r})")


def _fixed_fields(rc) -> dict:
    """The run_config fields an estimator decides at construction (changes to them are reported, not used)."""
    return {"node_count": rc.node_count, "framework": rc.framework, "communicator": rc.communicator,
            "mpi.process_count_per_node": rc.mpi.process_count_per_node, "docker.shm_size": rc.docker.shm_size,
            "amlcompute.vm_size": rc.amlcompute.vm_size, "script": rc.script}


def _flat(script_params):
    """script_params as v1's run_config.arguments listed them (dict items in order, lists as is)."""
    if isinstance(script_params, dict):
        return [x for k, v in script_params.items() for x in ((k,) if v in ("", None) else (k, v))]
    return list(script_params or [])


def _copied(value):
    if isinstance(value, (list, dict, tuple, set)):
        return copy.copy(value) if not isinstance(value, dict) else dict(value)
    return value


class Estimator(_EstimatorBase):
    """v1 ``azureml.train.estimator.Estimator``: any script, any image, MPI distribution only."""

    def __init__(self, source_directory, *, compute_target=None, vm_size=None, vm_priority=None, entry_script=None,
                 script_params=None, node_count=1, process_count_per_node=1, distributed_backend=None,
                 distributed_training=None, use_gpu=False, use_docker=True, custom_docker_base_image=None,
                 custom_docker_image=None, image_registry_details=None, user_managed=False, conda_packages=None,
                 pip_packages=None, conda_dependencies_file_path=None, pip_requirements_file_path=None,
                 conda_dependencies_file=None, pip_requirements_file=None, environment_variables=None,
                 environment_definition=None, inputs=None, source_directory_data_store=None, shm_size=None,
                 resume_from=None, max_run_duration_seconds=None, _disable_validation=True,
                 _show_lint_warnings=False, _show_package_warnings=False):
        params = dict(locals())
        for name in ("self", "source_directory", "__class__", "_disable_validation", "_show_lint_warnings",
                     "_show_package_warnings"):
            params.pop(name, None)
        self._init(source_directory, params)
