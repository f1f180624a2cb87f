"""Environment operations on this machine and the image: ``docker build`` and image details."""

from __future__ import annotations

import logging
import os
import shutil
import subprocess

from acpt_estimator import environments as engine
from acpt_estimator.exceptions import UserErrorException

logger = logging.getLogger(__name__)


def docker_build(env, platform=None, **kwargs):
    """``docker build -t <name>:<version or content hash> <context>``; the build context is the one v2 would use."""
    from acpt_estimator.backends.azureml.translate import write_build_context

    if platform not in (None, "Linux", "linux"):
        raise UserErrorException(f"Environment.build_local(platform={platform!r}): ACPT and v2 images are Linux; "
                                 "pass platform=None or 'Linux'.")
    if kwargs.get("useDocker") is False:
        raise UserErrorException("Environment.build_local(useDocker=False) built a conda environment on this machine "
                                 "in v1; local runs here use the current Python environment. Install the packages "
                                 "with pip, or build the image with useDocker=True.")
    docker = shutil.which("docker")
    if docker is None:
        raise UserErrorException(
            f"Environment.build_local needs Docker to build environment {env.name!r}, and no 'docker' command is on "
            "PATH. Install Docker (https://docs.docker.com/engine/install/) and start it, or build in the workspace "
            "with env.build(ws).")
    spec = _buildable(env._to_spec())
    folder, dockerfile = write_build_context(spec)
    tag = f"{env.name.lower()}:{env.version or spec.version}"
    argv = [docker, "build", "--platform", "linux/amd64", "-t", tag, "-f", os.path.join(folder, dockerfile), folder]
    logger.info("Building %s: %s", tag, " ".join(argv))
    result = subprocess.run(argv)
    if result.returncode != 0:
        raise UserErrorException(f"docker build of environment {env.name!r} failed with exit code "
                                 f"{result.returncode}; its output is above.")
    return tag


def _buildable(spec):
    """Any environment as a Dockerfile build: an image (+ conda) is ``FROM image``, a curated one its ACPT image."""
    if spec.kind == "build":
        return spec
    if spec.kind == "image":
        return engine.dockerfile_environment(f"FROM {spec.image}", spec.conda_file)
    acpt = engine.acpt_for_name(spec.name or "")
    if acpt is None:
        raise UserErrorException(f"Environment {spec.name!r} is registered in the workspace; its Dockerfile is not "
                                 "known here. Build it with env.build(ws), or describe it with "
                                 "Environment.from_docker_image(...).")
    return engine.dockerfile_environment(f"FROM {acpt.image}", None)


def image_details(env, workspace):
    """v1's image details: the image a job of this environment runs in (or the Dockerfile that builds it)."""
    from acpt_estimator.services import services_for
    from acpt_estimator.v1.core._environment_sections import DockerImageDetails

    spec = env._to_spec()
    image, version, dockerfile = spec.image, env.version, spec.dockerfile
    if spec.kind == "curated":
        acpt = engine.acpt_for_name(spec.name)
        image = acpt.image if acpt is not None else None
    elif spec.kind == "registered":
        image, version = services_for(workspace).environments.image(spec.name, spec.version, spec.label) or \
            (None, version)
    from acpt_estimator.v1.core._environment_spec import _has_registry_host

    registry = image.split("/", 1)[0] if image and _has_registry_host(image) else None
    return DockerImageDetails({
        "imageExistsInRegistry": image is not None,
        "dockerImage": {"name": image, "registry": {"address": registry} if registry else None},
        "pythonEnvironment": {"interpreterPath": env.python.interpreter_path, "condaEnvironmentPath": None},
        "ingredients": {"dockerfile": dockerfile},
        "environment": {"name": env.name, "version": version},
    })
