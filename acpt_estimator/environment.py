"""v1 ``Environment`` and ``CondaDependencies`` objects, kept just rich enough to describe a job's environment."""

from __future__ import annotations

import attrs
import yaml

from .exceptions import UserErrorException

DEFAULT_CPU_IMAGE = "mcr.microsoft.com/azureml/openmpi4.1.0-ubuntu22.04:latest"


@attrs.define
class CondaDependencies:
    """v1 ``azureml.core.conda_dependencies.CondaDependencies``: python version, conda and pip packages."""

    conda_packages: list = attrs.field(factory=list)
    pip_packages: list = attrs.field(factory=list)
    python_version: str | None = None
    channels: list = attrs.field(factory=lambda: ["conda-forge"])
    pip_options: list = attrs.field(factory=list)

    @classmethod
    def create(cls, pip_packages=None, conda_packages=None, python_version=None, pin_sdk_version=True,
               pip_indexurl=None):
        options = [f"--index-url {pip_indexurl}"] if pip_indexurl else []
        return cls(list(conda_packages or []), list(pip_packages or []), python_version, pip_options=options)

    @classmethod
    def _from_yaml_text(cls, text: str, source: str = "conda file") -> "CondaDependencies":
        try:
            data = yaml.safe_load(text) or {}
        except yaml.YAMLError as err:
            raise UserErrorException(f"{source} is not valid YAML: {err}") from None
        conda, pip, python, options = [], [], None, []
        for dep in data.get("dependencies") or []:
            if isinstance(dep, dict) and "pip" in dep:
                for item in dep["pip"] or []:
                    (options if str(item).startswith("-") else pip).append(str(item))
            elif str(dep).startswith("python=") or str(dep).startswith("python=="):
                python = str(dep).split("=")[-1]
            else:
                conda.append(str(dep))
        return cls(conda, pip, python, list(data.get("channels") or ["conda-forge"]), options)

    def add_pip_package(self, pip_package: str) -> None:
        if pip_package not in self.pip_packages:
            self.pip_packages.append(pip_package)

    def add_conda_package(self, conda_package: str) -> None:
        if conda_package not in self.conda_packages:
            self.conda_packages.append(conda_package)

    def add_channel(self, channel: str) -> None:
        if channel not in self.channels:
            self.channels.append(channel)

    def set_python_version(self, version: str) -> None:
        self.python_version = version

    def get_default_python_version(self) -> str | None:
        return self.python_version

    def serialize_to_string(self) -> str:
        return conda_yaml(self.conda_packages, self.pip_options + self.pip_packages, self.python_version, self.channels)

    def save(self, path: str) -> None:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(self.serialize_to_string())


def conda_yaml(conda_packages, pip_items, python_version, channels=("conda-forge",), name="project_environment") -> str:
    """A conda environment file; the same inputs always give the same text (environments are content-hashed)."""
    deps = [f"python={python_version}"] if python_version else []
    deps += list(conda_packages)
    deps += ["pip"]
    if pip_items:
        deps.append({"pip": list(pip_items)})
    return yaml.safe_dump({"name": name, "channels": list(channels), "dependencies": deps}, sort_keys=False)


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
