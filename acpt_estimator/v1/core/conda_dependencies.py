"""v1 ``azureml.core.conda_dependencies``: python version, conda and pip packages of an environment."""

from __future__ import annotations

import attrs
import yaml

from acpt_estimator.exceptions import UserErrorException


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
