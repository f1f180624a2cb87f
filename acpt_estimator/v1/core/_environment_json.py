"""A v1 ``Environment`` as v1's dictionary (``azureml_environment.json``, the ``environment`` of a .runconfig)."""

from __future__ import annotations

import copy

from acpt_estimator.environments import DEFAULT_CPU_IMAGE
from acpt_estimator.v1.core._environment_sections import DockerBuildContext
from acpt_estimator.v1.core.conda_dependencies import CondaDependencies
from acpt_estimator.v1.core.container_registry import ContainerRegistry


def to_dict(env) -> dict:
    docker, python = env.docker, env.python
    context = docker.build_context
    return {
        "name": env.name, "version": env.version, "environmentVariables": dict(env.environment_variables),
        "python": {"userManagedDependencies": python.user_managed_dependencies,
                   "interpreterPath": python.interpreter_path,
                   "condaDependenciesFile": python.conda_dependencies_file,
                   "baseCondaEnvironment": python.base_conda_environment,
                   "condaDependencies": python.conda_dependencies.as_dict()},
        "docker": {"enabled": docker.enabled, "baseImage": docker.base_image,
                   "baseDockerfile": docker.base_dockerfile,
                   "buildContext": None if context is None else {
                       "locationType": getattr(context.location_type, "value", context.location_type),
                       "location": context.location, "dockerfilePath": context.dockerfile_path},
                   "sharedVolumes": docker.shared_volumes, "shmSize": docker.shm_size,
                   "arguments": list(docker.arguments),
                   "baseImageRegistry": (docker.base_image_registry._to_dict()
                                         if isinstance(docker.base_image_registry, ContainerRegistry) else None),
                   "platform": {"os": docker.platform.os, "architecture": docker.platform.architecture}},
        "inferencingStackVersion": env.inferencing_stack_version,
    }


def from_dict(environment_class, data: dict):
    env = environment_class(data.get("name") or "environment", _skip_defaults=True)
    env.version = data.get("version")
    env.environment_variables = data.get("environmentVariables") or {}
    env.inferencing_stack_version = data.get("inferencingStackVersion")
    py, dk = data.get("python") or {}, data.get("docker") or {}
    env.python.user_managed_dependencies = bool(py.get("userManagedDependencies", False))
    env.python.interpreter_path = py.get("interpreterPath") or "python"
    env.python.conda_dependencies_file = py.get("condaDependenciesFile")
    env.python.base_conda_environment = py.get("baseCondaEnvironment")
    if py.get("condaDependencies") is not None:
        structure = copy.deepcopy(py["condaDependencies"])
        env.python.conda_dependencies = CondaDependencies(_underlying_structure=structure)
    context = dk.get("buildContext")
    if context:
        env.docker.build_context = DockerBuildContext(context.get("locationType"), context.get("location"),
                                                      context.get("dockerfilePath") or "Dockerfile")
    elif dk.get("baseDockerfile"):
        env.docker.base_dockerfile = dk["baseDockerfile"]
    else:
        env.docker.base_image = dk.get("baseImage", DEFAULT_CPU_IMAGE)
    env.docker.enabled = dk.get("enabled", False)
    env.docker.shared_volumes = dk.get("sharedVolumes", True)
    env.docker.shm_size = dk.get("shmSize")
    env.docker.arguments = dk.get("arguments") or []
    registry = ContainerRegistry._from_dict(dk.get("baseImageRegistry"))
    env.docker.base_image_registry = registry or ContainerRegistry()
    return env
