"""v1 ``azureml.core.environment``: an environment definition (image, Dockerfile or build folder, plus conda/pip
dependencies), its factories, save/load, and registration in the workspace (v2 environments) or the local store."""

from __future__ import annotations

import copy
import json
import logging
import os
import shutil
import subprocess

from acpt_estimator import environments as engine
from acpt_estimator.exceptions import UserErrorException
from acpt_estimator.spec import EnvironmentSpec
from acpt_estimator.v1._refusal import refused
from acpt_estimator.v1.core._environment_sections import (  # noqa: F401 (v1 names of this module)
    DockerBuildContext, DockerEnvironment, DockerImageDetails, DockerImagePlatform, DockerSection, ImageBuildDetails,
    PythonEnvironment, PythonSection, RCranPackage, RGitHubPackage, RSection, SparkEnvironment, SparkPackage,
    SparkSection, variables_property)
from acpt_estimator.v1.core.conda_dependencies import CondaDependencies
from acpt_estimator._lazy import lazy_names

logger = logging.getLogger(__name__)
DEFAULT_CPU_IMAGE = engine.DEFAULT_CPU_IMAGE
_CONDA_FILE = "conda_dependencies.yml"
_DOCKERFILE = "BaseDockerfile"
_DEFINITION = "azureml_environment.json"
_R_SPARK = "R and Spark environments have no SDK v2 command-job equivalent."
_SPARK_V2 = "Azure ML v2 Spark jobs: azure.ai.ml.spark(...) (az ml job create with type: spark)"


def _environments(workspace):
    """The workspace's environments service (``acpt_estimator.services``): the local registry, or v2 environments."""
    from acpt_estimator.services import services_for

    return services_for(workspace).environments


class Environment:
    """v1 ``azureml.core.Environment``: ``docker`` (image, Dockerfile or build context), ``python`` (conda/pip or
    user-managed), ``environment_variables``; or a reference to a curated/registered environment (``get``)."""

    spark = refused("Environment.spark", _R_SPARK, _SPARK_V2, kind="property")
    databricks = refused("Environment.databricks", "Databricks libraries have no SDK v2 command-job equivalent.",
                         "install the libraries in the image (Environment.from_dockerfile)", kind="property")
    label = refused("Environment.label", "v2 environments have no custom labels (only 'latest').",
                    "pin a version: Environment.get(ws, name, version='3'), or tag it: "
                    "ml_client.environments.create_or_update(Environment(..., tags={...}))")
    add_private_pip_wheel = refused(
        "Environment.add_private_pip_wheel", "v2 has no private-wheel artifact store for environments.",
        "put the wheel in a build folder and install it from the Dockerfile (COPY my.whl /tmp/ + RUN pip install "
        "/tmp/my.whl), then Environment.from_docker_build_context(...) or Environment.from_dockerfile(...)")

    def __init__(self, name, **kwargs):
        if name is not None and not isinstance(name, str):
            raise TypeError(f"Environment name expected str, {type(name)} found (v1's TypeError): pass a string, "
                            "e.g. Environment('my-training-env').")
        self.name = name
        self.version = None
        self.python = PythonSection()
        self.docker = DockerSection()
        self.r = None
        self.inferencing_stack_version = None
        self.asset_id = None
        self._environment_variables = {} if kwargs.get("_skip_defaults") else {"EXAMPLE_ENV_VAR": "EXAMPLE_VALUE"}
        self._reference = None  # (version, label, fingerprint) for Environment.get(...) of a name

    environment_variables = variables_property("Variables set in the job's environment.")

    @property
    def is_registered_reference(self) -> bool:
        """A name resolved by the service at submit, unchanged since ``Environment.get``."""
        return self._reference is not None and self._reference[2] == self._fingerprint()

    # ---- factories ----------------------------------------------------------------------------------
    @staticmethod
    def from_conda_specification(name, file_path):
        deps = CondaDependencies(conda_dependencies_file_path=file_path)
        if deps.get_python_version() is None:
            logger.warning('No Python version provided, defaulting to "%s"', "3.10")
            deps.set_python_version("3.10")
        env = Environment(name=name)
        env.python.conda_dependencies = deps
        return env

    @staticmethod
    def from_pip_requirements(name, file_path, pip_version=None):
        if not os.path.isfile(file_path):
            raise UserErrorException(f"Environment.from_pip_requirements(file_path={file_path!r}): no such file. "
                                     "Pass the path of a requirements.txt.")
        env = Environment(name=name)
        with open(file_path, encoding="utf-8") as handle:
            lines = [ln.strip() for ln in handle.read().splitlines() if ln.strip() and not ln.strip().startswith("#")]
        deps = env.python.conda_dependencies
        deps.set_pip_requirements(lines + [p for p in engine.RUNTIME_PIP_PACKAGES if p not in lines])
        deps.add_conda_package(f"pip={pip_version}" if pip_version else "pip")
        return env

    @staticmethod
    def _from_dependencies(name, conda_specification=None, pip_requirements=None):
        if conda_specification and pip_requirements:
            raise UserErrorException("Only one of conda_specification or pip_requirements can be specified as python "
                                     f"dependencies (got {conda_specification!r} and {pip_requirements!r}).")
        if conda_specification:
            return Environment.from_conda_specification(name, conda_specification)
        if pip_requirements:
            return Environment.from_pip_requirements(name, pip_requirements)
        env = Environment(name)
        env.python.user_managed_dependencies = True  # v1: an image or Dockerfile alone brings its own Python
        return env

    @staticmethod
    def from_docker_image(name, image, container_registry=None, conda_specification=None, pip_requirements=None):
        env = Environment._from_dependencies(name, conda_specification, pip_requirements)
        env.docker.base_image = image
        if container_registry is not None:
            env.docker.base_image_registry = container_registry
        return env

    @staticmethod
    def from_dockerfile(name, dockerfile, conda_specification=None, pip_requirements=None):
        """``dockerfile``: the Dockerfile's text, or the path of a Dockerfile (read now, as v1)."""
        env = Environment._from_dependencies(name, conda_specification, pip_requirements)
        if isinstance(dockerfile, str) and "\n" not in dockerfile and os.path.isfile(dockerfile):
            with open(dockerfile, encoding="utf-8") as handle:
                dockerfile = handle.read()
        env.docker.base_dockerfile = dockerfile
        return env

    @staticmethod
    def from_docker_build_context(name, docker_build_context):
        env = Environment(name, _skip_defaults=True)
        env.python.user_managed_dependencies = True  # the build folder's Dockerfile defines the whole image
        env.docker.build_context = docker_build_context
        return env

    @staticmethod
    def from_existing_conda_environment(name, conda_environment_name):
        """``conda env export --no-builds`` of a conda environment on this machine (needs ``conda`` on PATH)."""
        conda = shutil.which("conda")
        if conda is None:
            raise UserErrorException(
                f"Environment.from_existing_conda_environment(conda_environment_name={conda_environment_name!r}) "
                "needs conda on PATH to export the environment. Install Miniconda (or activate it), or export the "
                "file yourself (conda env export -n NAME > env.yml) and use Environment.from_conda_specification.")
        result = subprocess.run([conda, "env", "export", "--no-builds", "--name", conda_environment_name],
                                capture_output=True, text=True)
        if result.returncode != 0:
            raise UserErrorException(
                f"conda could not export environment {conda_environment_name!r} (exit {result.returncode}: "
                f"{result.stderr.strip()[-300:]}). List yours with: conda env list.")
        data = yaml_load(result.stdout)
        data.pop("prefix", None)  # this machine's path; meaningless in a job
        env = Environment(name=name)
        env.python.conda_dependencies = CondaDependencies(_underlying_structure=data)
        return env

    # ---- copies, files ------------------------------------------------------------------------------
    def clone(self, new_name):
        if not new_name:
            raise UserErrorException("Environment.clone(new_name=...) needs a name for the copy.")
        env = copy.deepcopy(self)
        env.name, env.version, env.asset_id = new_name, None, None
        if env._reference is not None:
            acpt = engine.acpt_for_name(self.name or "")
            if acpt is None:
                raise UserErrorException(
                    f"Environment.get(ws, {self.name!r}).clone({new_name!r}): that environment's definition stays in "
                    "the workspace (it is resolved by name when a job runs), so it cannot be copied here. Describe "
                    "the copy instead: Environment.from_docker_image(...) or Environment.from_conda_specification(...).")
            env.docker.base_image = acpt.image  # a copy of a curated environment builds on its image
            env._reference = None
        return env

    def __deepcopy__(self, memo):
        env = Environment._from_dict(self._to_dict())
        env._reference = self._reference
        return env

    def save_to_directory(self, path, overwrite=False):
        """v1's layout: ``azureml_environment.json``, ``conda_dependencies.yml`` and ``BaseDockerfile``."""
        if os.path.isdir(path) and os.listdir(path) and not overwrite:
            raise UserErrorException(f"Environment.save_to_directory(path={path!r}): the folder exists; pass "
                                     "overwrite=True to replace its files, or choose another folder.")
        os.makedirs(path, exist_ok=True)
        data = self._to_dict()
        deps = data["python"].pop("condaDependencies")
        with open(os.path.join(path, _CONDA_FILE), "w", encoding="utf-8", newline="\n") as handle:
            handle.write(CondaDependencies(_underlying_structure=deps).serialize_to_string())
        dockerfile = data["docker"].pop("baseDockerfile")
        if dockerfile:
            with open(os.path.join(path, _DOCKERFILE), "w", encoding="utf-8", newline="\n") as handle:
                handle.write(dockerfile)
        with open(os.path.join(path, _DEFINITION), "w", encoding="utf-8", newline="\n") as handle:
            json.dump(data, handle, indent=4)

    @staticmethod
    def load_from_directory(path):
        definition = os.path.join(path, _DEFINITION)
        if not os.path.isfile(definition):
            raise UserErrorException(f"Environment.load_from_directory(path={path!r}): no {_DEFINITION} there. "
                                     "Pass a folder written by env.save_to_directory(path).")
        with open(definition, encoding="utf-8") as handle:
            data = json.load(handle)
        env = Environment._from_dict(data)
        if os.path.isfile(os.path.join(path, _CONDA_FILE)):
            env.python.conda_dependencies = CondaDependencies(os.path.join(path, _CONDA_FILE))
        if os.path.isfile(os.path.join(path, _DOCKERFILE)):
            with open(os.path.join(path, _DOCKERFILE), encoding="utf-8") as handle:
                env.docker.base_dockerfile = handle.read()
        return env

    # ---- the workspace --------------------------------------------------------------------------------
    def register(self, workspace):
        """A new version of ``name`` in the workspace (v2 environment) or the local store; unchanged content
        keeps the latest version."""
        if self.is_registered_reference:
            return self
        return _environments(workspace).register(self)

    @staticmethod
    def get(workspace, name, version=None, label=None):
        """A registered (local store) definition, else a curated (``AzureML-*``) or workspace environment by name,
        resolved by the service at submit."""
        if version is not None and label is not None:
            raise UserErrorException("Only one of version or label can be specified. "
                                     f"Got version={version!r} and label={label!r}; drop one of them.")
        if workspace is not None:
            found = _environments(workspace).find(name, version, Environment.load_from_directory)
            if found is not None:  # a definition registered in the local store
                return found
        env = Environment(name, _skip_defaults=True)
        env.version = None if version is None else str(version)
        env.python.conda_dependencies = CondaDependencies(_underlying_structure={"name": name, "dependencies": []})
        acpt = engine.acpt_for_name(name)
        env.docker.base_image = acpt.image if acpt is not None else None
        pinned = None if workspace is None or engine.is_curated_name(name) else \
            _environments(workspace).resolve(name, env.version, label)
        if pinned is not None:  # a workspace environment: pinned to the version found, as v1's get returned one
            env.docker.base_image, env.version = pinned
            label = None
        env._reference = (env.version, label, env._fingerprint())
        return env

    @staticmethod
    def list(workspace):
        """``{name: Environment}``: the latest version of each registered environment; curated names are found in
        it too (``Environments``)."""
        return Environments(workspace, {name: Environment.get(workspace, name)
                                        for name in _environments(workspace).names()})

    def build(self, workspace, image_build_compute=None):
        """Registers the environment; v2 builds its image on the service when a job first uses it."""
        if image_build_compute is not None:
            logger.warning("image_build_compute=%r is not used: set the workspace's image build compute instead "
                           "(az ml workspace update --image-build-compute NAME).", image_build_compute)
        registered = self.register(workspace)
        store = _environments(workspace)
        log = f"Environment {registered.name}:{registered.version} is registered in {store.where}. {store.build_note}"
        # v1 code often checks for 'Succeeded' after wait_for_completion(): say plainly that nothing was built.
        import warnings

        warnings.warn(f"Environment.build registered {registered.name}:{registered.version} but built no image: "
                      "its status is 'Registered', not v1's 'Succeeded'. In v2 the service builds the image when the "
                      "first job uses it; build_local(workspace) builds it now with Docker.", stacklevel=2)
        return ImageBuildDetails(registered, "Registered", log)

    def build_local(self, workspace, platform=None, **kwargs):
        """``docker build`` of this environment's image on this machine; returns the image tag."""
        from acpt_estimator.v1.core import _environment_store

        # The image is built from this definition alone, so any workspace (v1 used it to reach the workspace's
        # registry for its base images; ACPT and v2 base images are public) gives the same image.
        del workspace

        return _environment_store.docker_build(self, platform=platform, **kwargs)

    def get_image_details(self, workspace):
        from acpt_estimator.v1.core import _environment_store

        return _environment_store.image_details(self, workspace)

    # ---- translation (``_environment_spec.py``) --------------------------------------------------------
    def _to_spec(self, source_directory: str | None = None) -> EnvironmentSpec:
        """The job's environment; every change made to this object (and its conda dependencies) is in it."""
        from acpt_estimator.v1.core._environment_spec import to_spec

        return to_spec(self, source_directory)

    def _fingerprint(self) -> str:
        data = self._to_dict()
        return json.dumps([data["python"], data["docker"]], sort_keys=True)

    # ---- v1's dictionary form (azureml_environment.json) ---------------------------------------------
    def _to_dict(self) -> dict:
        from acpt_estimator.v1.core._environment_json import to_dict

        return to_dict(self)

    @staticmethod
    def _from_dict(data: dict) -> "Environment":
        from acpt_estimator.v1.core._environment_json import from_dict

        return from_dict(Environment, data)

    def __repr__(self) -> str:
        return json.dumps(self._to_dict(), indent=4)

    def __str__(self) -> str:
        return repr(self)


class Environments(dict):
    """``ws.environments`` and ``Environment.list(ws)``: the registered environments by name, and, as v1 listed the
    curated ones beside them, curated names found by ``[]``, ``in`` and ``get``: ACPT ones and the v1-era names that
    map forward (``AzureML-PyTorch-1.6-GPU``), each giving what ``Environment.get(ws, name)`` gives. Iterating shows
    the registered ones only: v2 keeps curated environments in the ``azureml`` registry, not in the workspace."""

    def __init__(self, workspace, registered: dict):
        super().__init__(registered)
        self._workspace = workspace

    def __missing__(self, name):
        if not engine.known_curated_name(name):
            raise KeyError(name)
        return Environment.get(self._workspace, name)

    def __contains__(self, name) -> bool:
        return dict.__contains__(self, name) or engine.known_curated_name(name)

    def get(self, name, default=None):
        return self[name] if name in self else default


class EnvironmentReference:
    """v1 ``EnvironmentReference(name, version=None)``: a registered environment by name."""

    def __init__(self, name, version=None):
        self.name = name
        self.version = version

    def get_environment(self, workspace):
        return Environment.get(workspace, self.name, self.version)

    def __repr__(self) -> str:
        return f"EnvironmentReference(name={self.name!r}, version={self.version!r})"


def yaml_load(text: str) -> dict:
    import yaml

    data = yaml.safe_load(text) or {}
    if not isinstance(data, dict):
        raise UserErrorException("conda env export did not return a conda environment mapping.")
    return data


__all__ = ["CondaDependencies", "DockerBuildContext", "DockerEnvironment", "DockerImageDetails", "DockerImagePlatform",
           "DockerSection", "Environment", "EnvironmentReference", "ImageBuildDetails", "PythonEnvironment", "PythonSection",
           "RCranPackage", "RGitHubPackage", "RSection", "SparkEnvironment", "SparkPackage", "SparkSection"]


# v1 names this module also exported, defined elsewhere: resolved on first use (v1-importable.json).
__getattr__, __dir__ = lazy_names(__name__, {
    **dict.fromkeys(["AzureMLException", "UserErrorException"], "acpt_estimator.exceptions"),
    "PYTHON_DEFAULT_VERSION": "acpt_estimator.v1.core.conda_dependencies",
    "DEFAULT_GPU_IMAGE": "acpt_estimator.v1.core._images",
    "ContainerRegistry": "acpt_estimator.v1.core.container_registry",
    "DatabricksSection": "acpt_estimator.v1.core.databricks",
})
