"""v1 ``azureml.core.conda_dependencies``: the conda/pip specification of an environment, edited in place."""

from __future__ import annotations

import copy
import json
import logging
import os
import re

from acpt_estimator.environments import RUNTIME_PIP_PACKAGES
from acpt_estimator.exceptions import UserErrorException
from acpt_estimator._lazy import lazy_names

logger = logging.getLogger(__name__)

DEFAULT_SDK_ORIGIN = "https://pypi.python.org/simple"
CONDA_FILE_NAME = "auto_conda_dependencies.yml"
PYTHON_DEFAULT_VERSION = "3.10"
CNTK_DEFAULT_VERSION = "2.7"
TENSORFLOW_DEFAULT_VERSION = "2.2.0"
CHANNELS, PACKAGES, PIP, PYTHON = "channels", "dependencies", "pip", "python"
_VERSION = re.compile(r"(\d+)\.(\d+)(\.(\d+))?([ab](\d+))?$")
# v1's other module constants, with v1's values (the framework versions are v1's defaults, not what jobs here get).
VERSION_REGEX, PYTHON_PREFIX = _VERSION, PYTHON
BASE_PROJECT_MODULE, BASE_PROJECT_FILE_RELATIVE_PATH = "azureml._project", "base_project_files/conda_dependencies.yml"
LINUX_PLATFORM, WINDOWS_PLATFORM, CPU, GPU = "linux", "win32", "cpu", "gpu"
PYTORCH_DEFAULT_VERSION, TORCHVISION_DEFAULT_VERSION, HOROVOD_DEFAULT_VERSION = "1.6.0", "0.7.0", "0.19.5"
DEFAULT_CHAINER_VERSION, CUPY_DEFAULT_VERSION = "7.7.0", "cupy-cuda102"
CNTK_PACKAGE_PREFIX, TENSORFLOW_PACKAGE_PREFIX, PYTORCH_PACKAGE_PREFIX = "cntk", "tensorflow", "torch"
TORCHVISION_PACKAGE_PREFIX, CHAINER_PACKAGE_PREFIX = "torchvision", "chainer"
INVALID_PATHON_MESSAGE = "Invalid python version {0},only accept '3.8'"  # sic: v1's name and text
_VALID_KEYS = ("name", "channels", "dependencies", "prefix", "variables")
_CORE_TYPES = ("cpu", "gpu")


def _base_structure() -> dict:
    """v1's base file, with what v2 jobs need in place of azureml-defaults (MLflow + azureml-mlflow, so that
    ``Run.get_context().log`` reaches the job's run) and conda-forge only (the ``anaconda`` channel needs a licence)."""
    return {"name": "project_environment",
            PACKAGES: [f"{PYTHON}={PYTHON_DEFAULT_VERSION}", {PIP: list(RUNTIME_PIP_PACKAGES)}],
            CHANNELS: ["conda-forge"]}


class CondaDependencies:
    """v1 ``CondaDependencies(conda_dependencies_file_path=None)``: a conda file loaded (or v1's base one) and edited.

    Every change is kept in the structure that ``serialize_to_string``/``save`` write and that the job's
    environment is built from.
    """

    DEFAULT_NUMBER_OF_CONDA_PACKAGES = 0
    DEFAULT_NUMBER_OF_PIP_PACKAGES = 0

    def __init__(self, conda_dependencies_file_path=None, _underlying_structure=None):
        if conda_dependencies_file_path is not None:
            path = os.path.normpath(conda_dependencies_file_path)
            if not os.path.isfile(path):
                raise UserErrorException(
                    f"CondaDependencies(conda_dependencies_file_path={conda_dependencies_file_path!r}): no such file. "
                    "Pass the path of a conda environment YAML file (name/channels/dependencies).")
            with open(path, encoding="utf-8") as handle:
                self._conda_dependencies = _load_yaml(handle.read(), path)
        elif _underlying_structure is not None:
            self._conda_dependencies = _underlying_structure
        else:
            self._conda_dependencies = _base_structure()
        _validate_structure(self._conda_dependencies)
        self._python_version = self.get_python_version()

    @classmethod
    def _from_yaml_text(cls, text: str, source: str = "conda file") -> "CondaDependencies":
        return cls(_underlying_structure=_load_yaml(text, source))

    @staticmethod
    def create(pip_indexurl=None, pip_packages=None, conda_packages=None, python_version=PYTHON_DEFAULT_VERSION,
               pin_sdk_version=True):
        """v1's factory. ``pip_packages`` replaces the default pip packages; ``pin_sdk_version`` pins nothing here
        (there is no installed v1 SDK version to pin ``azureml-*`` packages to)."""
        from acpt_estimator.v1 import _params

        _params.check("CondaDependencies.create", pin_sdk_version=pin_sdk_version)
        cd = CondaDependencies()
        if pip_indexurl:
            cd.set_pip_option(f"--find-links {pip_indexurl}")
            cd.set_pip_option(f"--extra-index-url {DEFAULT_SDK_ORIGIN}")
        cd.set_python_version(python_version)
        if pip_packages is not None:
            for package in list(cd.pip_packages):
                cd.remove_pip_package(package)
        for package in pip_packages if pip_packages is not None else list(RUNTIME_PIP_PACKAGES):
            cd.add_pip_package(package)
        for package in conda_packages or []:
            cd.add_conda_package(package)
        return cd

    @staticmethod
    def merge_requirements(requirements):
        """``['a>1', 'a<3', 'b']`` -> ``['a>1,<3', 'b']``."""
        merged: dict = {}
        for req in requirements:
            name = _package_name(req)
            merged.setdefault(name, []).append(req[len(name):].strip())
        return [name + ",".join(x for x in specs if x) for name, specs in merged.items()]

    @staticmethod
    def sdk_origin_url():
        return DEFAULT_SDK_ORIGIN

    # ---- reading ------------------------------------------------------------------------------------
    @property
    def conda_channels(self):
        return iter(list(self._conda_dependencies.get(CHANNELS) or []))

    @property
    def conda_packages(self):
        return iter([d for d in self._packages() if isinstance(d, str)])

    @property
    def pip_packages(self):
        return iter([x for x in self._pip_list() if not str(x).startswith("-")])

    @property
    def pip_options(self):
        return iter([x for x in self._pip_list() if str(x).startswith("-")])

    def get_default_number_of_packages(self):
        base = CondaDependencies()
        counts = (len(list(base.conda_packages)), len(list(base.pip_packages)))
        self.DEFAULT_NUMBER_OF_CONDA_PACKAGES, self.DEFAULT_NUMBER_OF_PIP_PACKAGES = counts
        return counts

    def get_python_version(self):
        for item in self._packages():
            if isinstance(item, str) and _package_name(item) == PYTHON:
                match = _VERSION.search(item)
                return match.group() if match else None
        return None

    def as_dict(self):
        return json.loads(json.dumps(self._conda_dependencies))

    def serialize_to_string(self) -> str:
        import yaml  # imported where used: the v1 import line stays light
        return yaml.safe_dump(self._conda_dependencies, sort_keys=False, default_flow_style=False)

    # ---- editing ------------------------------------------------------------------------------------
    def set_python_version(self, version):
        _check_text("version", version, "set_python_version('3.10')")
        packages = self._conda_dependencies.setdefault(PACKAGES, [])
        index = self._python_index()
        if index >= 0:
            packages[index] = f"{PYTHON}={version}"
        else:
            packages.insert(0, f"{PYTHON}={version}")
        self._python_version = version

    def add_channel(self, channel):
        _check_text("channel", channel, "add_channel('conda-forge')")
        channels = self._conda_dependencies.setdefault(CHANNELS, [])
        if channel not in channels:
            channels.append(channel)

    def remove_channel(self, channel):
        channels = self._conda_dependencies.get(CHANNELS) or []
        if channel in channels:
            channels.remove(channel)

    def add_conda_package(self, conda_package):
        _check_text("conda_package", conda_package, "add_conda_package('numpy=1.26')")
        packages = self._conda_dependencies.setdefault(PACKAGES, [])
        if conda_package in packages:
            return
        if _package_name(conda_package) == PYTHON:
            self.set_python_version(_VERSION.search(conda_package).group()
                                    if _VERSION.search(conda_package) else PYTHON_DEFAULT_VERSION)
        else:
            packages.append(conda_package)

    def remove_conda_package(self, conda_package):
        packages = self._conda_dependencies.get(PACKAGES) or []
        if conda_package in packages:
            if _package_name(conda_package) == PYTHON:
                raise UserErrorException(
                    f"remove_conda_package({conda_package!r}): python must not be removed from conda dependencies; "
                    "change it with set_python_version('3.10').")
            packages.remove(conda_package)

    def add_pip_package(self, pip_package):
        """Adds (or replaces the entry of the same package, moving it to the end), as v1."""
        self._check_package(pip_package, "add_pip_package")
        self.remove_pip_package(pip_package)
        self._pip_list(create=True).append(pip_package)

    def remove_pip_package(self, pip_package):
        self._check_package(pip_package, "remove_pip_package")
        name = _package_name(pip_package)
        items = self._pip_list()
        for item in [x for x in items if not str(x).startswith("-") and _package_name(str(x)) == name]:
            items.remove(item)

    def set_pip_option(self, pip_option):
        """Adds ``--opt value``, replacing an option with the same flag."""
        self._check_option(pip_option, "set_pip_option")
        items = self._pip_list(create=True)
        flag = pip_option.split()[0]
        for i, item in enumerate(items):
            if str(item).startswith("-") and str(item).split()[0] == flag:
                items[i] = pip_option
                return
        items.append(pip_option)

    def remove_pip_option(self, pip_option):
        self._check_option(pip_option, "remove_pip_option")
        flag = pip_option.split()[0]
        items = self._pip_list()
        for item in [x for x in items if str(x).startswith("-") and str(x).split()[0] == flag]:
            items.remove(item)

    def set_pip_index_url(self, index_url):
        """As v1: the value is a whole pip option, e.g. ``'--index-url https://my.feed/simple'``."""
        self.set_pip_option(index_url)

    def set_pip_requirements(self, pip_requirements):
        """Replace the whole pip section (packages and options)."""
        if isinstance(pip_requirements, str):
            raise UserErrorException(
                f"set_pip_requirements(pip_requirements={pip_requirements!r}) takes a list of lines, e.g. "
                "open('requirements.txt').read().splitlines().")
        items = self._pip_list(create=True)
        items[:] = [str(x) for x in pip_requirements]

    def add_cntk_package(self, core_type="cpu"):
        self._check_core_type(core_type)
        self._remove_pip_prefix("cntk")
        self.add_pip_package(("cntk-gpu" if core_type.lower() == "gpu" else "cntk") + "==" + CNTK_DEFAULT_VERSION)

    def add_tensorflow_pip_package(self, core_type="cpu", version=None):
        self._check_core_type(core_type)
        self._remove_pip_prefix("tensorflow")
        name = "tensorflow-gpu" if core_type.lower() == "gpu" else "tensorflow"
        self.add_pip_package(f"{name}=={version or TENSORFLOW_DEFAULT_VERSION}")

    def add_tensorflow_conda_package(self, core_type="cpu", version=None):
        self._check_core_type(core_type)
        for item in [d for d in self.conda_packages if d.startswith("tensorflow")]:
            self.remove_conda_package(item)
        name = "tensorflow-gpu" if core_type.lower() == "gpu" else "tensorflow"
        self.add_conda_package(f"{name}={version or TENSORFLOW_DEFAULT_VERSION}")

    # ---- writing ------------------------------------------------------------------------------------
    def save(self, path=None):
        """Write the conda file to ``path`` (a file path whose folder exists); returns the path."""
        if not path or os.path.isdir(path):
            raise UserErrorException(
                f"CondaDependencies.save(path={path!r}): cannot save a conda environment specification file to a "
                "directory. Pass a full file path, e.g. save('env/conda_dependencies.yml').")
        parent = os.path.dirname(path)
        if parent and not os.path.isdir(parent):
            raise UserErrorException(
                f"CondaDependencies.save(path={path!r}): cannot save the conda environment specification file to an "
                f"invalid path: folder {parent!r} does not exist. Create it first (os.makedirs).")
        self._validate()
        with open(path, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(self.serialize_to_string())
        return path.replace("\\", "/")

    def save_to_file(self, base_directory, conda_file_path=None):
        """DEPRECATED in v1 (use ``save``): writes under ``base_directory``, by default
        ``.azureml/auto_conda_dependencies.yml``."""
        if not conda_file_path:
            folder = ".azureml" if not os.path.isdir(os.path.join(base_directory, "aml_config")) else "aml_config"
            os.makedirs(os.path.join(base_directory, folder), exist_ok=True)
            conda_file_path = f"{folder}/{CONDA_FILE_NAME}"
        normalized = conda_file_path.replace("\\", "/")
        self.save(os.path.join(os.path.abspath(base_directory), normalized))
        return normalized

    # ---- internals ----------------------------------------------------------------------------------
    def _packages(self) -> list:
        return self._conda_dependencies.get(PACKAGES) or []

    def _pip_list(self, create: bool = False) -> list:
        for item in self._packages():
            if isinstance(item, dict) and PIP in item:
                if item[PIP] is None:
                    item[PIP] = []
                return item[PIP]
        if not create:
            return []
        section: list = []
        self._conda_dependencies.setdefault(PACKAGES, []).append({PIP: section})
        return section

    def _python_index(self) -> int:
        for i, item in enumerate(self._packages()):
            if isinstance(item, str) and _package_name(item) == PYTHON:
                return i
        return -1

    def _remove_pip_prefix(self, prefix: str) -> None:
        for item in [x for x in self.pip_packages if str(x).startswith(prefix)]:
            self.remove_pip_package(item)

    def _validate(self) -> None:
        if self._python_index() < 0:
            raise UserErrorException("Python package is missing from these conda dependencies; add it with "
                                     "set_python_version('3.10').")

    @staticmethod
    def _check_package(value, method):
        _check_text("pip_package", value, f"{method}('numpy==1.26.4')")
        if value.startswith("-"):
            raise UserErrorException(f"Invalid package name {value}: {method}() takes a package; pass pip options "
                                     f"such as {value!r} to set_pip_option().")

    @staticmethod
    def _check_option(value, method):
        _check_text("pip_option", value, f"{method}('--extra-index-url https://my.feed/simple')")
        if not value.startswith("-"):
            raise UserErrorException(f"Invalid pip option {value}: {method}() takes an option starting with '-'; "
                                     f"add packages such as {value!r} with add_pip_package().")

    @staticmethod
    def _check_core_type(core_type):
        if str(core_type).lower() not in _CORE_TYPES:
            raise UserErrorException(f"Invalid core type {core_type}. Only accept 'cpu' or 'gpu'.")

    def __deepcopy__(self, memo):
        return CondaDependencies(_underlying_structure=copy.deepcopy(self._conda_dependencies, memo))

    def __eq__(self, other):
        return isinstance(other, CondaDependencies) and self._conda_dependencies == other._conda_dependencies

    def __repr__(self) -> str:
        return f"CondaDependencies({self.as_dict()!r})"


def _package_name(value: str) -> str:
    """v1's rule: a wheel file's distribution name, else the text before any of ``[=<>~!``."""
    value = str(value)
    if value.endswith(".whl"):
        return re.split("-", re.split("/", value)[-1])[0]
    return re.split(r"[\[=|<>~!]", value)[0].strip()


def _check_text(param, value, example):
    if not isinstance(value, str) or not value.strip():
        raise UserErrorException(f"{param}={value!r} must be a non-empty string, e.g. {example}.")


def _load_yaml(text: str, source: str) -> dict:
    import yaml  # imported where used: the v1 import line stays light
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as err:
        raise UserErrorException(f"{source} is not valid YAML: {err}") from None
    return data if data is not None else {}


def _validate_structure(data) -> None:
    if not isinstance(data, dict):
        raise UserErrorException("Environment error: not a valid YAML structure. A conda file is a mapping with "
                                 "name, channels and dependencies.")
    for key in data:
        if str(key) not in _VALID_KEYS:
            raise UserErrorException(f"Environment error: unknown {key} key in environment specification; "
                                     f"allowed keys are {list(_VALID_KEYS)}.")


# v1 names this module also exported, defined elsewhere: resolved on first use (v1-importable.json).
__getattr__, __dir__ = lazy_names(__name__, {
    "UserErrorException": "acpt_estimator.exceptions",
})
