"""The ACPT curated-environment catalog, and v1 environment parameters -> ``EnvironmentSpec``."""

from __future__ import annotations

import functools
import hashlib
import json
import logging
import os
import shlex
from importlib import resources

import attrs

from acpt_estimator.v1.core.environment import DEFAULT_CPU_IMAGE, Environment
from acpt_estimator.v1.core.conda_dependencies import conda_yaml
from .exceptions import TrainingException, UserErrorException
from .spec import EnvironmentSpec

logger = logging.getLogger(__name__)

V1_PYTORCH_VERSIONS = ["1.0", "1.1", "1.2", "1.3", "1.4", "1.5", "1.6"]
ENVIRONMENT_OVERRIDE_VAR = "ACPT_ESTIMATOR_ENVIRONMENT"
MCR_CURATED = "mcr.microsoft.com/azureml/curated/"
# v1's curated names and their successors: the old ones were deleted from workspaces.
_OLD_CURATED_PREFIXES = ("AzureML-PyTorch-", "AzureML-ACPT-pytorch-")


@attrs.frozen
class AcptEnvironment:
    """One ACPT curated environment as published by azureml-assets."""

    name: str
    torch: str
    cuda: str
    python: str
    status: str  # active | deprecated | removed
    default: bool = False
    note: str = ""

    @property
    def image(self) -> str:
        return f"{MCR_CURATED}{self.name}:latest"

    @property
    def workspace_name(self) -> str:
        return f"AzureML-{self.name}"


@functools.lru_cache(maxsize=1)
def _catalog_data() -> dict:
    text = resources.files(__package__).joinpath("catalog/acpt_environments.json").read_text(encoding="utf-8")
    return json.loads(text)


def catalog() -> tuple[AcptEnvironment, ...]:
    return tuple(AcptEnvironment(**entry) for entry in _catalog_data()["environments"])


def default_acpt() -> AcptEnvironment:
    return next(env for env in catalog() if env.default)


def usable_versions() -> list[str]:
    """framework_version values accepted: v1's (mapped forward) and the torch versions of live ACPT envs."""
    acpt = sorted({e.name.split("-")[2] for e in catalog() if e.status != "removed"}, key=_version_key)
    return V1_PYTORCH_VERSIONS + [v for v in acpt if v not in V1_PYTORCH_VERSIONS]


def _version_key(version: str):
    return tuple(int(p) for p in version.split("."))


def resolve_framework_version(framework_version) -> AcptEnvironment:
    """v1 rule 13 plus the forward mapping: '1.0'-'1.6' -> the newest ACPT, with a warning naming it."""
    if framework_version is None:
        env = default_acpt()
        logger.info("framework_version is not specified, using %s (PyTorch %s).", env.workspace_name, env.torch)
        return env
    supported = usable_versions()
    if not isinstance(framework_version, str) or framework_version not in supported:
        shown = framework_version
        raise TrainingException(
            f"PyTorch {shown} is not currently supported by the PyTorch estimator. Check "
            "https://docs.microsoft.com/python/api/azureml-train-core/azureml.train.dnn?view=azure-ml-py for all "
            f"supported versions. To use PyTorch {shown}, switch to the generic Estimator class for your experiment. "
            f"framework_version={framework_version!r} must be a string, one of {supported}.")
    if framework_version in V1_PYTORCH_VERSIONS:
        env = default_acpt()
        logger.warning(
            "framework_version=%r: PyTorch %s images no longer exist; using the ACPT curated environment %s "
            "(PyTorch %s) instead. Pass framework_version=%r to silence this warning.",
            framework_version, framework_version, env.workspace_name, env.torch, env.name.split("-")[2])
        return env
    candidates = [e for e in catalog() if e.name.split("-")[2] == framework_version and e.status != "removed"]
    env = candidates[0]
    if env.status == "deprecated":
        logger.warning("%s is deprecated; consider framework_version=%r.", env.workspace_name,
                       default_acpt().name.split("-")[2])
    return env


def _content_version(*parts: str) -> str:
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part.encode("utf-8"))
        digest.update(b"\0")
    return digest.hexdigest()[:16]


def curated_override() -> EnvironmentSpec | None:
    """``ACPT_ESTIMATOR_ENVIRONMENT=AzureML-acpt-pytorch-2.2-cuda12.1:33`` (or ``@label``) pins the GPU environment."""
    value = os.environ.get(ENVIRONMENT_OVERRIDE_VAR)
    if not value:
        return None
    value = value.removeprefix("azureml:")
    name, label, version = value, None, None
    if "@" in value:
        name, label = value.split("@", 1)
    elif ":" in value:
        name, version = value.split(":", 1)
    return EnvironmentSpec(kind="curated" if name.startswith("AzureML-") else "registered", name=name,
                           version=version, label=label if version is None else None,
                           description=f"from {ENVIRONMENT_OVERRIDE_VAR}")


@attrs.frozen
class EnvironmentRequest:
    """The environment-related estimator parameters, already validated by the estimator."""

    framework_version: str | None = None
    use_gpu: bool = False
    custom_docker_image: str | None = None
    user_managed: bool = False
    conda_packages: tuple = ()
    pip_packages: tuple = ()
    pip_requirements: tuple = ()  # lines of the pip requirements file
    conda_file_text: str | None = None
    environment_definition: Environment | None = None


def resolve(request: EnvironmentRequest) -> EnvironmentSpec:
    """Pick the job's environment: the user's definition, a custom image, ACPT (GPU) or a CPU image."""
    if request.environment_definition is not None:
        return from_environment_object(request.environment_definition)
    acpt = resolve_framework_version(request.framework_version)
    if request.custom_docker_image:
        return _image_env(request, request.custom_docker_image, with_torch=False)
    if not request.use_gpu:
        return _image_env(request, DEFAULT_CPU_IMAGE, with_torch=True, torch_version=acpt.torch)
    has_packages = request.pip_packages or request.conda_packages or request.pip_requirements or request.conda_file_text
    if not has_packages:
        return curated_override() or EnvironmentSpec(
            kind="curated", name=acpt.workspace_name, label="latest", torch_version=acpt.torch,
            description=f"ACPT curated environment ({acpt.name})")
    return _build_env(request, acpt)


def _image_env(request: EnvironmentRequest, image: str, *, with_torch: bool, torch_version: str | None = None):
    if request.user_managed:
        return EnvironmentSpec(kind="image", name="acpt-estimator-image", version=_content_version(image),
                               image=image, description="user-managed image: nothing installed on top")
    if request.conda_file_text is not None:
        conda = request.conda_file_text
    else:
        pip_items = []
        if with_torch:
            # CPU wheels live on PyTorch's own index; the ACPT images are GPU-only. MLflow + azureml-mlflow let
            # Run.get_context().log(...) reach the job's run (ACPT images ship both).
            pip_items += ["--extra-index-url https://download.pytorch.org/whl/cpu", f"torch=={torch_version}.*",
                          "mlflow-skinny", "azureml-mlflow"]
        elif not (request.pip_packages or request.conda_packages or request.pip_requirements):
            return EnvironmentSpec(kind="image", name="acpt-estimator-image", version=_content_version(image),
                                   image=image, description="custom image")
        pip_items += list(request.pip_packages) + list(request.pip_requirements)
        conda = conda_yaml(request.conda_packages, pip_items, "3.10")
    kind = "cpu" if with_torch else "custom"
    return EnvironmentSpec(kind="image", name=f"acpt-estimator-{kind}", version=_content_version(image, conda),
                           image=image, conda_file=conda, torch_version=torch_version,
                           description=f"{image} with a conda environment",
                           pip_packages=tuple(request.pip_packages) + tuple(request.pip_requirements))


def _build_env(request: EnvironmentRequest, acpt: AcptEnvironment) -> EnvironmentSpec:
    """A Dockerfile FROM the ACPT image; packages go into the image's own Python (conda env ``ptca``)."""
    lines = [f"FROM {acpt.image}"]
    files = []
    if request.conda_file_text is not None:
        files.append(("conda_dependencies.yml", request.conda_file_text))
        lines += ["COPY conda_dependencies.yml /tmp/conda_dependencies.yml",
                  "RUN conda env update -n ptca -f /tmp/conda_dependencies.yml && conda clean -ay"]
    if request.conda_packages:
        lines.append("RUN conda install -y -n ptca " + " ".join(shlex.quote(str(p)) for p in request.conda_packages)
                     + " && conda clean -ay")
    if request.pip_requirements:
        files.append(("requirements.txt", "\n".join(request.pip_requirements) + "\n"))
        lines += ["COPY requirements.txt /tmp/requirements.txt",
                  "RUN pip install --no-cache-dir -r /tmp/requirements.txt"]
    if request.pip_packages:
        lines.append("RUN pip install --no-cache-dir " + " ".join(shlex.quote(str(p)) for p in request.pip_packages))
    dockerfile = "\n".join(lines) + "\n"
    version = _content_version(dockerfile, *[f"{name}\n{text}" for name, text in files])
    return EnvironmentSpec(kind="build", name=f"acpt-estimator-{acpt.name}", version=version,
                           dockerfile=dockerfile, context_files=tuple(files), torch_version=acpt.torch,
                           description=f"{acpt.workspace_name} plus the job's packages",
                           pip_packages=tuple(request.pip_packages) + tuple(request.pip_requirements))


def from_environment_object(env: Environment) -> EnvironmentSpec:
    """v1 ``environment_definition=`` / ``ScriptRunConfig(environment=)``."""
    if not isinstance(env, Environment):
        raise UserErrorException(
            f"environment_definition={env!r} is a {type(env).__name__}; pass an azureml.core.Environment "
            "(Environment.get(ws, 'AzureML-acpt-pytorch-2.8-cuda12.6') or Environment.from_conda_specification(...)).")
    if env.is_registered_reference:
        return _named_environment(env)
    image = env.docker.base_image or DEFAULT_CPU_IMAGE
    if env.python.user_managed_dependencies:
        return EnvironmentSpec(kind="image", name=env.name, version=_content_version(image), image=image,
                               description="user-managed environment")
    conda = env.python.conda_dependencies.serialize_to_string()
    return EnvironmentSpec(kind="image", name=env.name, version=_content_version(image, conda), image=image,
                           conda_file=conda, description=f"environment {env.name!r}")


def _named_environment(env: Environment) -> EnvironmentSpec:
    name = env.name
    if name.startswith(_OLD_CURATED_PREFIXES):
        acpt = default_acpt()
        logger.warning("Curated environment %r no longer exists; using %s instead.", name, acpt.workspace_name)
        return EnvironmentSpec(kind="curated", name=acpt.workspace_name, label="latest", torch_version=acpt.torch,
                               description=f"replacement for {name}")
    if name.startswith("AzureML-") or name.lower().startswith("azureml-acpt"):
        name = "AzureML-" + name.split("-", 1)[1] if not name.startswith("AzureML-") else name
        return EnvironmentSpec(kind="curated", name=name, version=env.version,
                               label=env.label or (None if env.version else "latest"))
    return EnvironmentSpec(kind="registered", name=name, version=env.version,
                           label=env.label or (None if env.version else "latest"))
