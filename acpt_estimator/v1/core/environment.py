"""v1 ``Environment`` and ``CondaDependencies`` objects, kept just rich enough to describe a job's environment."""

from __future__ import annotations

import attrs
import yaml

from acpt_estimator.exceptions import UserErrorException
from acpt_estimator.v1.core.conda_dependencies import CondaDependencies, conda_yaml

DEFAULT_CPU_IMAGE = "mcr.microsoft.com/azureml/openmpi4.1.0-ubuntu22.04:latest"


@attrs.define
class DockerSection:
    base_image: str | None = DEFAULT_CPU_IMAGE
    base_dockerfile: str | None = None
    shm_size: str | None = None
    enabled: bool = False


@attrs.define
class PythonSection:
    user_managed_dependencies: bool = False
    conda_dependencies: CondaDependencies = attrs.field(factory=CondaDependencies)
    interpreter_path: str = "python"


@attrs.define
class Environment:
    """v1 ``azureml.core.Environment``: a curated or registered name, or an image plus dependencies."""

    name: str
    version: str | None = None
    label: str | None = None
    docker: DockerSection = attrs.field(factory=DockerSection)
    python: PythonSection = attrs.field(factory=PythonSection)
    environment_variables: dict = attrs.field(factory=lambda: {"EXAMPLE_ENV_VAR": "EXAMPLE_VALUE"})
    _registered: bool = False

    @staticmethod
    def get(workspace, name, version=None, label=None) -> "Environment":
        """A curated (``AzureML-*``) or workspace environment by name; resolved by the backend at submit."""
        if version is not None and label is not None:
            raise UserErrorException("Only one of version or label can be specified. "
                                     f"Got version={version!r} and label={label!r}; drop one of them.")
        return Environment(name=name, version=None if version is None else str(version), label=label,
                           registered=True)

    @staticmethod
    def from_conda_specification(name, file_path) -> "Environment":
        with open(file_path, encoding="utf-8") as handle:
            deps = CondaDependencies._from_yaml_text(handle.read(), file_path)
        return Environment(name=name, python=PythonSection(conda_dependencies=deps))

    @staticmethod
    def from_pip_requirements(name, file_path, pip_version=None) -> "Environment":
        with open(file_path, encoding="utf-8") as handle:
            lines = [ln.strip() for ln in handle if ln.strip() and not ln.lstrip().startswith("#")]
        deps = CondaDependencies.create(pip_packages=lines)
        return Environment(name=name, python=PythonSection(conda_dependencies=deps))

    @staticmethod
    def from_docker_image(name, image, container_registry=None, conda_specification=None, pip_requirements=None):
        env = Environment(name=name)
        env.docker.base_image = image
        if conda_specification:
            env.python = Environment.from_conda_specification(name, conda_specification).python
        elif pip_requirements:
            env.python = Environment.from_pip_requirements(name, pip_requirements).python
        return env

    def register(self, workspace) -> "Environment":
        """Registration happens with the job in v2 (content-hashed); kept so v1 code runs."""
        return self

    @property
    def is_registered_reference(self) -> bool:
        return self._registered
