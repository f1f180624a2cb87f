"""The parts of a v1 ``Environment``: python and docker sections, build context, image details; R/Spark refuse."""

from __future__ import annotations

import enum
import logging

from acpt_estimator.environments import DEFAULT_CPU_IMAGE
from acpt_estimator.exceptions import UserErrorException
from acpt_estimator.v1._refusal import refuse
from acpt_estimator.v1.core.conda_dependencies import CondaDependencies
from acpt_estimator.v1.core.container_registry import ContainerRegistry

logger = logging.getLogger(__name__)
DEFAULT_SHM_SIZE = "2g"


def variables_property(doc: str):
    """v1's ``environment_variables`` property (on Environment and RunConfiguration): any mapping, kept as a dict."""

    def set_variables(self, value):
        self._environment_variables = dict(value or {})

    return property(lambda self: self._environment_variables, set_variables, doc=doc)


class PythonSection:
    """v1 ``PythonSection``: ``conda_dependencies`` (built into the job's image) or ``user_managed_dependencies``."""

    def __init__(self, **kwargs):
        self.user_managed_dependencies = False
        self.interpreter_path = "python"
        self.conda_dependencies = CondaDependencies()
        self.base_conda_environment = None
        self._conda_dependencies_file = None
        for key, value in kwargs.items():
            if not key.startswith("_"):
                setattr(self, key, value)

    @property
    def conda_dependencies_file(self):
        """A conda file path relative to the source directory; when set it is read at submit instead of
        ``conda_dependencies``."""
        return self._conda_dependencies_file

    @conda_dependencies_file.setter
    def conda_dependencies_file(self, value):
        self._conda_dependencies_file = value


class PythonEnvironment(PythonSection):
    """DEPRECATED in v1: use ``PythonSection``."""


class DockerImagePlatform:
    """v1 ``DockerImagePlatform``: v2 images are Linux/amd64 unless the compute says otherwise."""

    def __init__(self):
        self.os = "Linux"
        self.architecture = "amd64"


class DockerBuildContext:
    """v1 ``DockerBuildContext``: a folder (here: on this machine, uploaded by v2 at submit) with a Dockerfile."""

    class LocationType(enum.Enum):
        Git = "git"
        StorageAccount = "storageAccount"

    def __init__(self, location_type=None, location=None, dockerfile_path="Dockerfile"):
        self.location_type = location_type
        self.location = location
        self.dockerfile_path = dockerfile_path

    @staticmethod
    def from_local_directory(workspace, path, dockerfile_path="Dockerfile"):
        import os

        if not os.path.isdir(path) or not os.path.isfile(os.path.join(path, dockerfile_path)):
            raise UserErrorException(
                f"DockerBuildContext.from_local_directory(path={path!r}, dockerfile_path={dockerfile_path!r}): "
                f"{path!r} must be a folder containing {dockerfile_path!r}.")
        return DockerBuildContext(location=os.path.abspath(path), dockerfile_path=dockerfile_path)


class DockerSection:
    """v1 ``DockerSection``: one of ``base_image``, ``base_dockerfile`` or ``build_context`` (setting one clears the
    others, as v1's mutually exclusive fields), plus ``base_image_registry`` and v1's container settings."""

    def __init__(self, **kwargs):
        self._base_image = DEFAULT_CPU_IMAGE
        self._base_dockerfile = None
        self._build_context = None
        self.base_image_registry = ContainerRegistry()
        self.platform = DockerImagePlatform()
        self._enabled = False
        self._shared_volumes = True
        self._arguments = []
        self._shm_size = None
        for key, value in kwargs.items():
            if not key.startswith("_"):
                setattr(self, key, value)

    def _exclusive(self, field: str, value) -> None:
        if value is not None:
            for other in ("_base_image", "_base_dockerfile", "_build_context"):
                if other != field and getattr(self, other) is not None:
                    logger.warning("Environment docker: setting %s clears %s (they are mutually exclusive).",
                                   field[1:], other[1:])
                    setattr(self, other, None)
        setattr(self, field, value)

    @property
    def base_image(self):
        return self._base_image

    @base_image.setter
    def base_image(self, value):
        self._exclusive("_base_image", value)

    @property
    def base_dockerfile(self):
        return self._base_dockerfile

    @base_dockerfile.setter
    def base_dockerfile(self, value):
        self._exclusive("_base_dockerfile", value)

    @property
    def build_context(self):
        return self._build_context

    @build_context.setter
    def build_context(self, value):
        if value is not None and not isinstance(value, DockerBuildContext):
            raise UserErrorException(f"docker.build_context={value!r} must be a DockerBuildContext, e.g. "
                                     "DockerBuildContext.from_local_directory(ws, './docker').")
        self._exclusive("_build_context", value)

    @property
    def gpu_support(self):
        """DEPRECATED in v1: GPU support is detected from the compute."""
        return True

    @gpu_support.setter
    def gpu_support(self, _):
        logger.warning("docker.gpu_support is deprecated (v1 too): GPUs are used when the compute has them.")

    # v1 deprecated these in favour of DockerConfiguration; still honoured where v2 has a field (shm_size).
    @property
    def enabled(self):
        return self._enabled

    @enabled.setter
    def enabled(self, value=False):
        self._enabled = bool(value)

    @property
    def shared_volumes(self):
        return self._shared_volumes

    @shared_volumes.setter
    def shared_volumes(self, value=True):
        self._shared_volumes = value

    @property
    def arguments(self):
        return self._arguments

    @arguments.setter
    def arguments(self, value=None):
        self._arguments = list(value or [])

    @property
    def shm_size(self):
        return self._shm_size

    @shm_size.setter
    def shm_size(self, value=None):
        self._shm_size = value


class DockerEnvironment(DockerSection):
    """DEPRECATED in v1: use ``DockerSection``."""


class DockerImageDetails(dict):
    """v1 ``DockerImageDetails``: the service's image description (``dockerImage.name``/``registry``, ...)."""

    @property
    def image_exist(self):
        return self.get("imageExistsInRegistry")

    @property
    def repository(self):
        return self.get("dockerImage", {}).get("name")

    @property
    def registry(self):
        return self.get("dockerImage", {}).get("registry")

    @property
    def image(self):
        return self.repository

    @property
    def interpreter_path(self):
        return self.get("pythonEnvironment", {}).get("interpreterPath")

    @property
    def environment_path(self):
        return self.get("pythonEnvironment", {}).get("condaEnvironmentPath")

    @property
    def dockerfile(self):
        return self.get("ingredients", {}).get("dockerfile")


class ImageBuildDetails:
    """v1 ``ImageBuildDetails`` for ``Environment.build``: v2 builds a registered environment's image on the
    service when a job first uses it, so the details say that instead of streaming a build log."""

    def __init__(self, environment, status, log):
        self.environment = environment
        self._status = status
        self._log = log

    @property
    def status(self):
        return self._status

    def get_log(self):
        return self._log

    def wait_for_completion(self, show_output=True):
        if show_output:
            print(self._log)
        return self


def _r_spark_refusal(member):
    refuse(member, "R and Spark environments have no SDK v2 command-job equivalent.",
           "Azure ML v2 Spark jobs (azure.ai.ml.spark(...), az ml job create with type: spark), or an R image with "
           "Environment.from_docker_image(...)")


class SparkPackage:
    """v1 ``SparkPackage``: refused (Spark)."""

    def __init__(self, group=None, artifact=None, version=None):
        _r_spark_refusal("SparkPackage")


class SparkSection:
    """v1 ``SparkSection``: refused (Spark)."""

    def __init__(self, **kwargs):
        _r_spark_refusal("SparkSection")


class SparkEnvironment(SparkSection):
    """v1 ``SparkEnvironment``: refused (Spark)."""


class RCranPackage:
    """v1 ``RCranPackage``: refused (R)."""

    def __init__(self):
        _r_spark_refusal("RCranPackage")


class RGitHubPackage:
    """v1 ``RGitHubPackage``: refused (R)."""

    def __init__(self):
        _r_spark_refusal("RGitHubPackage")


class RSection:
    """v1 ``RSection``: refused (R)."""

    def __init__(self):
        _r_spark_refusal("RSection")
