"""The ACPT curated-environment catalog, and v1 environment parameters -> ``EnvironmentSpec``."""

from __future__ import annotations

import functools
import hashlib
import json
import logging
import os
import re
import shlex

import attrs

from .exceptions import TrainingException
from .package_specs import conda_file_packages, conda_spec, package_list, pip_requirement, pip_requirements_text
from .spec import EnvironmentSpec

logger = logging.getLogger(__name__)

V1_PYTORCH_VERSIONS = ["1.0", "1.1", "1.2", "1.3", "1.4", "1.5", "1.6"]
ENVIRONMENT_OVERRIDE_VAR = "ACPT_ESTIMATOR_ENVIRONMENT"
MCR_CURATED = "mcr.microsoft.com/azureml/curated/"
# v1's curated names and their successors: the old ones were deleted from workspaces.
_OLD_CURATED_PREFIXES = ("AzureML-PyTorch-", "AzureML-ACPT-pytorch-")
DEFAULT_CPU_IMAGE = "mcr.microsoft.com/azureml/openmpi4.1.0-ubuntu22.04:latest"
# What v2 jobs need so that Run.get_context().log(...) reaches the job's run: the job runtime's MLflow-backed Run
# logs through them (v1 added azureml-defaults to every environment for the same reason). ACPT images ship both.
RUNTIME_PIP_PACKAGES = ("mlflow-skinny", "azureml-mlflow")
# Installing any of these on top of ACPT would replace the image's own torch build (CUDA, NCCL, apex...).
TORCH_PACKAGES = frozenset({"torch", "torchvision", "torchaudio", "pytorch", "pytorch-cpu", "pytorch-gpu",
                            "pytorch-cuda"})
# Where image+conda environments live in the image (v2 does the same for its own conda builds).
CONDA_PREFIX = "/azureml-envs/acpt-estimator"


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
    # Read by the package's loader, from files or a zip alike, as importlib.resources would; without the pathlib and
    # zipfile imports that costs (~3 ms of every driver's start).
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "catalog", "acpt_environments.json")
    return json.loads(__spec__.loader.get_data(path).decode("utf-8"))


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
        fix = f"framework_version={framework_version!r} must be a string, one of {supported}."
        if isinstance(framework_version, (int, float)) and str(framework_version) in supported:
            # 1.10 as a float is 1.1: only the string says which version is meant
            fix = (f"framework_version={framework_version!r} is a number; versions are strings (the float 1.10 "
                   f"would read as 1.1). Pass framework_version={str(framework_version)!r}; supported are {supported}.")
        raise TrainingException(
            f"PyTorch {shown} is not currently supported by the PyTorch estimator. Check "
            "https://docs.microsoft.com/python/api/azureml-train-core/azureml.train.dnn?view=azure-ml-py for all "
            f"supported versions. To use PyTorch {shown}, switch to the generic Estimator class for your experiment. "
            + fix)
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


def resolve(request: EnvironmentRequest) -> EnvironmentSpec:
    """Pick the job's environment: a custom image, ACPT (GPU) or a CPU image (``environment_definition`` objects
    describe themselves: ``Environment._to_spec()``)."""
    _check_request(request)
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
    return build_on_acpt(acpt, conda_packages=request.conda_packages, pip_packages=request.pip_packages,
                         pip_requirements=request.pip_requirements, conda_file_text=request.conda_file_text)


def _check_request(request: EnvironmentRequest) -> None:
    """Every package string parsed before it can reach a build file, naming the v1 parameter it came from."""
    for item in package_list(request.pip_packages, "pip_packages"):
        pip_requirement(item, "pip_packages")
    for item in package_list(request.conda_packages, "conda_packages", "['numpy=1.26']"):
        conda_spec(item, "conda_packages")
    pip_requirements_text("\n".join(request.pip_requirements), "pip_requirements_file")
    if request.conda_file_text is not None:
        conda_file_packages(_yaml(request.conda_file_text), "conda_dependencies_file")


def _yaml(text: str):
    import yaml  # imported where used: the v1 import line stays light
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as err:
        raise TrainingException(f"The conda dependencies file is not valid YAML: {err}. Fix the file.") from None


def _image_env(request: EnvironmentRequest, image: str, *, with_torch: bool, torch_version: str | None = None):
    user_pip = tuple(request.pip_packages) + tuple(request.pip_requirements)
    if request.user_managed:
        return image_environment(image, None, description="user-managed image: nothing installed on top")
    if request.conda_file_text is not None:
        return image_environment(image, request.conda_file_text, pip_packages=user_pip)
    pip_items, conda_packages = [], tuple(request.conda_packages)
    if with_torch:
        pip_items += cpu_torch_pip_items(torch_version)
        user_pip = drop_torch(user_pip, f"the CPU build of torch {torch_version}")
        conda_packages = drop_torch(conda_packages, f"the CPU build of torch {torch_version}")
    pip_items += list(RUNTIME_PIP_PACKAGES) + list(user_pip)
    if with_torch and not user_pip and not conda_packages:
        # Most local and CPU jobs: a text of constants, written without importing yaml and packaging (~25 ms of a
        # driver's start); test_environments proves it is what conda_yaml writes for every catalog torch version.
        spec = image_environment(image, cpu_conda_text(torch_version), written_here=True)
    else:
        spec = image_environment(image, conda_yaml(conda_packages, pip_items, "3.10"), pip_packages=user_pip)
    if spec.kind != "image":
        return spec
    return attrs.evolve(spec, name=f"acpt-estimator-{'cpu' if with_torch else 'custom'}", torch_version=torch_version)


def cpu_torch_pip_items(torch_version: str) -> list:
    """CPU wheels live on PyTorch's own index; the ACPT images are GPU-only."""
    return ["--extra-index-url https://download.pytorch.org/whl/cpu", f"torch=={torch_version}.*"]


def cpu_conda_text(torch_version: str) -> str:
    """``conda_yaml`` of a CPU environment without user packages: CPU torch plus ``RUNTIME_PIP_PACKAGES``."""
    pip_items = cpu_torch_pip_items(torch_version) + list(RUNTIME_PIP_PACKAGES)
    return ("name: project_environment\nchannels:\n- conda-forge\ndependencies:\n- python=3.10\n- pip\n- pip:\n"
            + "".join(f"  - {item}\n" for item in pip_items))


def image_environment(image: str, conda_text: str | None, *, pip_packages=(), description: str = "",
                      written_here: bool = False) -> EnvironmentSpec:
    """An image with the user's conda environment built on it (plus ``RUNTIME_PIP_PACKAGES``), or the image alone
    when ``conda_text`` is None (user-managed: nothing installed). Content-addressed. ``written_here``: a text of
    this module's own constants, with the runtime packages in it (nothing to parse or add)."""
    acpt = acpt_for_image(image)
    if conda_text is not None and not written_here:
        conda_file_packages(_yaml(conda_text))
    if acpt is not None and conda_text is not None:
        if not _has_user_packages(conda_text):
            conda_text = None  # ACPT already ships python, MLflow and azureml-mlflow
        else:
            # v2 would build a fresh conda env without the image's torch: install into ACPT's own env instead.
            return build_on_acpt(acpt, conda_file_text=conda_text, pip_packages=tuple(pip_packages))
    elif conda_text is not None and not written_here:
        conda_text = with_runtime_packages(conda_text)
    return EnvironmentSpec(kind="image", name="acpt-estimator-image", version=_content_version(image, conda_text or ""),
                           image=image, conda_file=conda_text, user_managed=conda_text is None and acpt is None,
                           description=description or ("custom image" if conda_text is None
                                                       else f"{image} with a conda environment"),
                           pip_packages=tuple(pip_packages))


def dockerfile_environment(dockerfile: str | None, conda_text: str | None, *, context_dir: str | None = None,
                           dockerfile_path: str = "Dockerfile", description: str = "") -> EnvironmentSpec:
    """A user's Dockerfile (or build folder); a conda environment, when given, is created in the image and put
    first on PATH, as v2 does for image+conda environments."""
    files = []
    if conda_text is not None:
        conda_file_packages(_yaml(conda_text))
    lines = [dockerfile.replace("\r\n", "\n").rstrip("\n")] if dockerfile else []
    if conda_text is not None:
        conda_text = with_runtime_packages(conda_text)
        files.append(("conda_dependencies.yml", conda_text))
        lines += ["COPY conda_dependencies.yml /tmp/conda_dependencies.yml",
                  f"RUN conda env create -p {CONDA_PREFIX} -f /tmp/conda_dependencies.yml && conda clean -ay",
                  f"ENV PATH={CONDA_PREFIX}/bin:$PATH"]
    text = "\n".join(lines) + "\n" if lines else None
    version = _content_version(text or "", context_dir or "", dockerfile_path, *[f"{n}\n{t}" for n, t in files])
    return EnvironmentSpec(kind="build", name="acpt-estimator-dockerfile", version=version, dockerfile=text,
                           context_files=tuple(files), context_dir=context_dir, dockerfile_path=dockerfile_path,
                           user_managed=conda_text is None,
                           description=description or "a Dockerfile environment")


def build_on_acpt(acpt: AcptEnvironment, *, conda_packages=(), pip_packages=(), pip_requirements=(),
                  conda_file_text: str | None = None) -> EnvironmentSpec:
    """A Dockerfile FROM the ACPT image; packages go into the image's own Python (conda env ``ptca``), never
    replacing its torch."""
    where = f"{acpt.workspace_name} (torch {acpt.torch})"
    lines = [f"FROM {acpt.image}"]
    files = []
    if conda_file_text is not None:
        conda_file_packages(_yaml(conda_file_text))
        conda_file_text = _conda_text_without_torch(conda_file_text, where)
        files.append(("conda_dependencies.yml", conda_file_text))
        lines += ["COPY conda_dependencies.yml /tmp/conda_dependencies.yml",
                  "RUN conda env update -n ptca -f /tmp/conda_dependencies.yml && conda clean -ay"]
    conda_packages = drop_torch(conda_packages, where)
    pip_requirements = drop_torch(pip_requirements, where)
    pip_packages = drop_torch(pip_packages, where)
    if conda_packages:  # only parsed specs, quoted, reach the Dockerfile (a newline would start an instruction)
        lines.append("RUN conda install -y -n ptca " + " ".join(
            shlex.quote(conda_spec(p, "conda_packages")) for p in conda_packages) + " && conda clean -ay")
    if pip_requirements:
        parsed = pip_requirements_text("\n".join(pip_requirements), "pip_requirements_file")
        files.append(("requirements.txt", "\n".join(parsed) + "\n"))
        lines += ["COPY requirements.txt /tmp/requirements.txt",
                  "RUN pip install --no-cache-dir -r /tmp/requirements.txt"]
    if pip_packages:
        lines.append("RUN pip install --no-cache-dir " + " ".join(
            shlex.join(pip_requirement(p, "pip_packages").split(" ", 1)) for p in pip_packages))
    dockerfile = "\n".join(lines) + "\n"
    version = _content_version(dockerfile, *[f"{name}\n{text}" for name, text in files])
    return EnvironmentSpec(kind="build", name=f"acpt-estimator-{acpt.name}", version=version,
                           dockerfile=dockerfile, context_files=tuple(files), torch_version=acpt.torch,
                           description=f"{acpt.workspace_name} plus the job's packages",
                           pip_packages=tuple(pip_packages) + tuple(pip_requirements))


def acpt_for_image(image: str | None) -> AcptEnvironment | None:
    """The ACPT environment an image reference points at (``mcr.microsoft.com/azureml/curated/acpt-...``)."""
    if not image or not image.startswith(MCR_CURATED):
        return None
    repository = image[len(MCR_CURATED):].split(":", 1)[0].split("@", 1)[0]
    return next((env for env in catalog() if env.name == repository), None)


def acpt_for_name(name: str) -> AcptEnvironment | None:
    """The ACPT environment a curated name (``AzureML-acpt-pytorch-2.8-cuda12.6``) stands for."""
    short = name.split("-", 1)[1] if name.lower().startswith("azureml-") else name
    return next((env for env in catalog() if env.name.lower() == short.lower()), None)


def requirement_name(requirement: str) -> str:
    """The distribution name of a pip/conda requirement (``Torch==1.6`` -> ``torch``; wheels by file name)."""
    text = str(requirement).strip()
    if text.endswith(".whl"):
        text = text.rsplit("/", 1)[-1].split("-", 1)[0]
    return re.split(r"[\[=<>~!; ]", text, maxsplit=1)[0].lower().replace("_", "-")


def drop_torch(items, where: str) -> tuple:
    """``items`` without packages that would replace the torch of ``where`` (ACPT's), each dropped with a warning."""
    kept = []
    for item in items:
        if isinstance(item, str) and requirement_name(item) in TORCH_PACKAGES:
            logger.warning("Dropping %r from the job's packages: the environment builds on %s, and installing it "
                           "would replace that torch build. Remove it from your packages to silence this warning, or "
                           "pick the torch version with framework_version=.", item, where)
            continue
        kept.append(item)
    return tuple(kept)


def _has_user_packages(conda_text: str) -> bool:
    import yaml  # imported where used: the v1 import line stays light
    deps = (yaml.safe_load(conda_text) or {}).get("dependencies") or []
    ignored = {"python", "pip", *RUNTIME_PIP_PACKAGES}
    for dep in deps:
        items = dep.get("pip") or [] if isinstance(dep, dict) else [dep]
        if any(not str(i).startswith("-") and requirement_name(str(i)) not in ignored for i in items):
            return True
    return False


def _conda_text_without_torch(text: str, where: str) -> str:
    """Torch packages dropped, and python unpinned: ACPT's env ``ptca`` keeps the image's own python."""
    import yaml  # imported where used: the v1 import line stays light
    data = yaml.safe_load(text) or {}
    deps = data.get("dependencies") or []
    new = []
    for dep in deps:
        if isinstance(dep, dict) and "pip" in dep:
            new.append({**dep, "pip": list(drop_torch(dep["pip"] or [], where))})
        elif isinstance(dep, str) and requirement_name(dep) != "python":
            new.extend(drop_torch([dep], where))
        elif not isinstance(dep, str):
            new.append(dep)
    if new == deps:
        return text  # unchanged files keep their exact text (and content hash)
    return yaml.safe_dump({**data, "dependencies": new}, sort_keys=False)


def with_runtime_packages(conda_text: str) -> str:
    """The conda file with ``RUNTIME_PIP_PACKAGES`` added to its pip section where missing (text kept if present)."""
    import yaml  # imported where used: the v1 import line stays light
    data = yaml.safe_load(conda_text) or {}
    deps = list(data.get("dependencies") or [])
    pip_section = next((d for d in deps if isinstance(d, dict) and "pip" in d), None)
    present = {requirement_name(p) for p in (pip_section or {}).get("pip") or [] if isinstance(p, str)}
    missing = [p for p in RUNTIME_PIP_PACKAGES if p not in present]
    if not missing:
        return conda_text
    if pip_section is None:
        if not any(isinstance(d, str) and requirement_name(d) == "pip" for d in deps):
            deps.append("pip")
        deps.append({"pip": missing})
    else:
        pip_section["pip"] = list(pip_section.get("pip") or []) + missing
    return yaml.safe_dump({**data, "dependencies": deps}, sort_keys=False)


def conda_yaml(conda_packages, pip_items, python_version, channels=("conda-forge",), name="project_environment") -> str:
    """A conda environment file; the same inputs always give the same text (environments are content-hashed)."""
    import yaml  # imported where used: the v1 import line stays light
    deps = [f"python={python_version}"] if python_version else []
    deps += [conda_spec(p) for p in conda_packages]
    for item in pip_items:  # YAML quotes them; parsed so that conda's pip step reads each as one requirement
        pip_requirement(item)
    deps += ["pip"]
    if pip_items:
        deps.append({"pip": list(pip_items)})
    return yaml.safe_dump({"name": name, "channels": list(channels), "dependencies": deps}, sort_keys=False)


def is_curated_name(name: str) -> bool:
    """Azure ML's curated environments (``AzureML-*``, old PyTorch ones included) live in the azureml registry."""
    return name.startswith(_OLD_CURATED_PREFIXES) or name.startswith("AzureML-") or \
        name.lower().startswith("azureml-acpt")


def known_curated_name(name) -> bool:
    """A curated name this project resolves: an ACPT environment of the catalog, or a v1-era PyTorch one that maps
    forward (``AzureML-PyTorch-1.6-GPU``)."""
    return isinstance(name, str) and (name.startswith(_OLD_CURATED_PREFIXES) or acpt_for_name(name) is not None)


def named_environment(name: str, version=None, label=None) -> EnvironmentSpec:
    """A curated (``AzureML-*``) or workspace environment by name; old PyTorch curated names map forward."""
    if name.startswith(_OLD_CURATED_PREFIXES):
        acpt = default_acpt()
        logger.warning("Curated environment %r no longer exists; using %s instead.", name, acpt.workspace_name)
        return EnvironmentSpec(kind="curated", name=acpt.workspace_name, label="latest", torch_version=acpt.torch,
                               description=f"replacement for {name}")
    if name.startswith("AzureML-") or name.lower().startswith("azureml-acpt"):
        name = "AzureML-" + name.split("-", 1)[1] if not name.startswith("AzureML-") else name
        return EnvironmentSpec(kind="curated", name=name, version=version,
                               label=label or (None if version else "latest"))
    return EnvironmentSpec(kind="registered", name=name, version=version,
                           label=label or (None if version else "latest"))
