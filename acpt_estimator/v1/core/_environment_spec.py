"""v1 ``Environment`` -> the engine's ``EnvironmentSpec``: what a job of the environment runs in (a curated or
registered name, an image with conda/pip, a Dockerfile or a build folder), and the v1 fields v2 cannot use, said."""

from __future__ import annotations

import logging
import os

import attrs

from acpt_estimator import environments as engine
from acpt_estimator.exceptions import UserErrorException
from acpt_estimator.spec import EnvironmentSpec

logger = logging.getLogger("acpt_estimator.v1.core.environment")  # Environment's warnings, under its module's name
DEFAULT_CPU_IMAGE = engine.DEFAULT_CPU_IMAGE
_GENERIC_NAMES = ("acpt-estimator-image", "acpt-estimator-dockerfile")


def to_spec(env, source_directory: str | None = None) -> EnvironmentSpec:
    """The job's environment; every change made to this object (and its conda dependencies) is in it."""
    if env.is_registered_reference:
        version, label, _ = env._reference
        return engine.named_environment(env.name, version, label)
    if env._reference is not None:
        acpt = engine.acpt_for_name(env.name)
        if acpt is None:
            raise UserErrorException(
                f"Environment.get(ws, {env.name!r}) refers to a registered environment whose definition is in "
                "the workspace, so changes made to it here cannot be applied. Describe the environment instead "
                "(Environment.from_docker_image / from_conda_specification) and register it.")
        deps = env.python.conda_dependencies
        return engine.build_on_acpt(acpt, conda_packages=tuple(deps.conda_packages),
                                    pip_packages=tuple(deps.pip_options) + tuple(deps.pip_packages))
    spec = _definition_spec(env, source_directory)
    # The user's name labels the spec (messages, build folders); v2 registers it anonymously in jobs.
    return attrs.evolve(spec, name=env.name or spec.name) if spec.name in _GENERIC_NAMES else spec


def _definition_spec(env, source_directory) -> EnvironmentSpec:
    _warn_unmapped(env)
    conda_text = None if env.python.user_managed_dependencies else _conda_text(env, source_directory)
    docker, described = env.docker, f"environment {env.name!r}"
    if docker.build_context is not None:
        context = docker.build_context
        return engine.dockerfile_environment(None, None, context_dir=context.location,
                                             dockerfile_path=context.dockerfile_path, description=described)
    if docker.base_dockerfile:
        return engine.dockerfile_environment(docker.base_dockerfile, conda_text, description=described)
    user_pip = tuple(p for p in env.python.conda_dependencies.pip_packages
                     if p not in engine.RUNTIME_PIP_PACKAGES) if conda_text else ()
    return engine.image_environment(_image(env), conda_text, pip_packages=user_pip, description=described)


def _warn_unmapped(env) -> None:
    """v1 fields with no v2 environment field: said, never dropped silently."""
    unmapped = {
        "python.interpreter_path": (env.python.interpreter_path not in (None, "python"),
                                    "v2 runs 'python' from PATH; put yours first with ENV PATH=... in a Dockerfile"),
        "python.base_conda_environment": (bool(env.python.base_conda_environment),
                                          "v2 builds the conda environment from scratch on the image"),
        "docker.arguments": (bool(env.docker.arguments),
                             "pass docker_args=... to azure.ai.ml.command(...) in a native v2 job"),
    }
    for field, (used, fix) in unmapped.items():
        if used:
            logger.warning("Environment %r: %s is not used by v2 jobs (%s).", env.name, field, fix)


def _conda_text(env, source_directory):
    path = env.python.conda_dependencies_file
    if path:
        full = os.path.join(source_directory or ".", path)
        if not os.path.isfile(full):
            raise UserErrorException(f"python.conda_dependencies_file={path!r}: {full} does not exist. The file "
                                     "is read relative to the source directory; put it there.")
        with open(full, encoding="utf-8") as handle:
            return handle.read()
    return env.python.conda_dependencies.serialize_to_string()


def _image(env) -> str:
    image = env.docker.base_image or DEFAULT_CPU_IMAGE
    registry = env.docker.base_image_registry
    address = getattr(registry, "address", None)
    if address and not _has_registry_host(image):
        image = f"{address.rstrip('/')}/{image}"
    if registry is not None and (getattr(registry, "username", None) or getattr(registry, "password", None)):
        logger.warning("Environment %r: base_image_registry credentials are not used: v2 jobs pull images with "
                       "the workspace's identity. Grant it AcrPull on %s (or attach the registry).",
                       env.name, address or "the registry")
    return image


def _has_registry_host(image: str) -> bool:
    first = image.split("/", 1)[0]
    return "/" in image and ("." in first or ":" in first or first == "localhost")
