"""v1 ``azureml.core.environment``: an environment definition (image, Dockerfile or build folder, plus conda/pip
dependencies), its factories, save/load, and registration in the workspace (v2 environments) or the local store."""

from __future__ import annotations

import copy
import json
import logging
import os
import shutil
import subprocess

import attrs

from acpt_estimator import environments as engine
from acpt_estimator.exceptions import UserErrorException
from acpt_estimator.spec import EnvironmentSpec
from acpt_estimator.target import local_mode
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
_GENERIC_NAMES = ("acpt-estimator-image", "acpt-estimator-dockerfile")
_R_SPARK = "R and Spark environments have no SDK v2 command-job equivalent."
_SPARK_V2 = "Azure ML v2 Spark jobs: azure.ai.ml.spark(...) (az ml job create with type: spark)"


def _is_local(workspace) -> bool:
    return workspace is None or getattr(workspace, "is_local", False) or local_mode()


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
        if _is_local(workspace):
            from acpt_estimator.v1.core import _environment_store

            return _environment_store.register(self)
        from acpt_estimator.backends.azureml.assets import register_environment

        registered = copy.deepcopy(self)
        registered.version = register_environment(workspace, self._to_spec(), self.name, self.version)
        return registered

    @staticmethod
    def get(workspace, name, version=None, label=None):
        """A registered (local store) definition, else a curated (``AzureML-*``) or workspace environment by name,
        resolved by the service at submit."""
        if version is not None and label is not None:
            raise UserErrorException("Only one of version or label can be specified. "
                                     f"Got version={version!r} and label={label!r}; drop one of them.")
        if workspace is not None and _is_local(workspace):
            from acpt_estimator.v1.core import _environment_store

            found = _environment_store.get(name, version)
            if found is not None:
                return found
        env = Environment(name, _skip_defaults=True)
        env.version = None if version is None else str(version)
        env.python.conda_dependencies = CondaDependencies(_underlying_structure={"name": name, "dependencies": []})
        acpt = engine.acpt_for_name(name)
        env.docker.base_image = acpt.image if acpt is not None else None
        if workspace is not None and not _is_local(workspace) and not engine.is_curated_name(name):
            env.docker.base_image, env.version = _workspace_environment(workspace, name, env.version, label)
            label = None  # pinned to the version found, as v1's get returned one version
        env._reference = (env.version, label, env._fingerprint())
        return env

    @staticmethod
    def list(workspace):
        """``{name: Environment}``: the latest version of each registered environment; curated names are found in
        it too (``Environments``)."""
        if _is_local(workspace):
            from acpt_estimator.v1.core import _environment_store

            return Environments(workspace, _environment_store.latest_of_each())
        from acpt_estimator.backends.azureml.assets import environment_names

        names = environment_names(workspace)
        return Environments(workspace, {name: Environment.get(workspace, name) for name in names})

    def build(self, workspace, image_build_compute=None):
        """Registers the environment; v2 builds its image on the service when a job first uses it."""
        if image_build_compute is not None:
            logger.warning("image_build_compute=%r is not used: set the workspace's image build compute instead "
                           "(az ml workspace update --image-build-compute NAME).", image_build_compute)
        registered = self.register(workspace)
        where = "this machine's store" if _is_local(workspace) else f"workspace {workspace.name!r}"
        log = (f"Environment {registered.name}:{registered.version} is registered in {where}. "
               + ("Local runs use the current Python environment; build_local(ws) builds the image with Docker."
                  if _is_local(workspace) else
                  "Azure ML v2 builds its image when the first job uses it (see the job's image build log)."))
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

    # ---- translation ----------------------------------------------------------------------------------
    def _to_spec(self, source_directory: str | None = None) -> EnvironmentSpec:
        """The job's environment; every change made to this object (and its conda dependencies) is in it."""
        if self.is_registered_reference:
            version, label, _ = self._reference
            return engine.named_environment(self.name, version, label)
        if self._reference is not None:
            acpt = engine.acpt_for_name(self.name)
            if acpt is None:
                raise UserErrorException(
                    f"Environment.get(ws, {self.name!r}) refers to a registered environment whose definition is in "
                    "the workspace, so changes made to it here cannot be applied. Describe the environment instead "
                    "(Environment.from_docker_image / from_conda_specification) and register it.")
            deps = self.python.conda_dependencies
            return engine.build_on_acpt(acpt, conda_packages=tuple(deps.conda_packages),
                                        pip_packages=tuple(deps.pip_options) + tuple(deps.pip_packages))
        spec = self._definition_spec(source_directory)
        # The user's name labels the spec (messages, build folders); v2 registers it anonymously in jobs.
        return attrs.evolve(spec, name=self.name or spec.name) if spec.name in _GENERIC_NAMES else spec

    def _definition_spec(self, source_directory) -> EnvironmentSpec:
        self._warn_unmapped()
        conda_text = None if self.python.user_managed_dependencies else self._conda_text(source_directory)
        docker, described = self.docker, f"environment {self.name!r}"
        if docker.build_context is not None:
            context = docker.build_context
            return engine.dockerfile_environment(None, None, context_dir=context.location,
                                                 dockerfile_path=context.dockerfile_path, description=described)
        if docker.base_dockerfile:
            return engine.dockerfile_environment(docker.base_dockerfile, conda_text, description=described)
        user_pip = tuple(p for p in self.python.conda_dependencies.pip_packages
                         if p not in engine.RUNTIME_PIP_PACKAGES) if conda_text else ()
        return engine.image_environment(self._image(), conda_text, pip_packages=user_pip, description=described)

    def _warn_unmapped(self) -> None:
        """v1 fields with no v2 environment field: said, never dropped silently."""
        unmapped = {
            "python.interpreter_path": (self.python.interpreter_path not in (None, "python"),
                                        "v2 runs 'python' from PATH; put yours first with ENV PATH=... in a Dockerfile"),
            "python.base_conda_environment": (bool(self.python.base_conda_environment),
                                              "v2 builds the conda environment from scratch on the image"),
            "docker.arguments": (bool(self.docker.arguments),
                                 "pass docker_args=... to azure.ai.ml.command(...) in a native v2 job"),
        }
        for field, (used, fix) in unmapped.items():
            if used:
                logger.warning("Environment %r: %s is not used by v2 jobs (%s).", self.name, field, fix)

    def _conda_text(self, source_directory):
        path = self.python.conda_dependencies_file
        if path:
            full = os.path.join(source_directory or ".", path)
            if not os.path.isfile(full):
                raise UserErrorException(f"python.conda_dependencies_file={path!r}: {full} does not exist. The file "
                                         "is read relative to the source directory; put it there.")
            with open(full, encoding="utf-8") as handle:
                return handle.read()
        return self.python.conda_dependencies.serialize_to_string()

    def _image(self) -> str:
        image = self.docker.base_image or DEFAULT_CPU_IMAGE
        registry = self.docker.base_image_registry
        address = getattr(registry, "address", None)
        if address and not _has_registry_host(image):
            image = f"{address.rstrip('/')}/{image}"
        if registry is not None and (getattr(registry, "username", None) or getattr(registry, "password", None)):
            logger.warning("Environment %r: base_image_registry credentials are not used: v2 jobs pull images with "
                           "the workspace's identity. Grant it AcrPull on %s (or attach the registry).",
                           self.name, address or "the registry")
        return image

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


def _workspace_environment(workspace, name, version, label):
    """(image, version) of a workspace environment; a missing one is v1's error, with the fix."""
    from acpt_estimator.backends.azureml.assets import environment_image

    found = environment_image(workspace, name, version, label)
    if found is None:
        shown = f"{name}:{version}" if version else f"{name}@{label or 'latest'}"
        raise UserErrorException(
            f"Environment.get(ws, {name!r}): no environment {shown} in workspace {workspace.name!r}. List them with "
            "Environment.list(ws) (az ml environment list), or register one with env.register(ws).")
    return found


def _has_registry_host(image: str) -> bool:
    first = image.split("/", 1)[0]
    return "/" in image and ("." in first or ":" in first or first == "localhost")


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
