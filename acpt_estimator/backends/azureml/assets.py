"""Workspace assets through the MLClient: models registered from a job's outputs (``run.register_model``) and
environments."""

from __future__ import annotations

from .client import azure_errors, ml_client, workspace_missing


def job_output_uri(job_name: str, path: str) -> str:
    """The v2 URI of a path the job uploaded under its default artifact output (``./outputs`` and friends)."""
    return f"azureml://jobs/{job_name}/outputs/artifacts/paths/{path.lstrip('/')}"


def register_job_model(workspace, job_name: str, model_name: str, model_path: str, *, tags=None, properties=None,
                       description=None, model_framework=None, model_framework_version=None):
    """Create a v2 ``Model`` pointing at the job's output (nothing is uploaded; the service copies it)."""
    from azure.ai.ml.entities import Model

    props = {str(k): str(v) for k, v in (properties or {}).items()}
    if model_framework:  # v2 models have no framework field; keep v1's value visible on the model
        props["model_framework"] = str(model_framework)
    if model_framework_version:
        props["model_framework_version"] = str(model_framework_version)
    model = Model(name=model_name, path=job_output_uri(job_name, model_path), type="custom_model",
                  description=description, tags={str(k): str(v) for k, v in (tags or {}).items()} or None,
                  properties=props or None)
    with azure_errors(workspace, f"register model {model_name!r}"):
        return ml_client(workspace).models.create_or_update(model)


def register_environment(workspace, spec, name: str, version: str | None = None, description=None):
    """``Environment.register``: the spec as a named v2 environment; returns the registered version (a string)."""
    from .translate import environment_entity

    entity = environment_entity(spec, name=name, version=version, description=description)
    with azure_errors(workspace, f"register environment {name!r}"):
        return str(ml_client(workspace).environments.create_or_update(entity).version)


def environment_names(workspace) -> list:
    """Names of the workspace's environments (``Environment.list``; v2 lists each name once, latest first)."""
    with azure_errors(workspace, "list environments"):
        return sorted({env.name for env in ml_client(workspace).environments.list()})


def environment_image(workspace, name: str, version: str | None = None, label: str | None = None):
    """(image, version) of a registered environment (image None while a Dockerfile environment is unbuilt);
    None when the workspace has no such environment."""
    from azure.ai.ml.exceptions import ValidationException
    from azure.core.exceptions import ResourceNotFoundError

    with azure_errors(workspace, f"read environment {name!r}"):
        ops = ml_client(workspace).environments
        try:
            env = ops.get(name, version=version) if version else ops.get(name, label=label or "latest")
        except ResourceNotFoundError as err:
            if workspace_missing(err, workspace):
                raise
            return None
        except ValidationException as err:  # 'name@latest' of a name with no versions
            if "does not exist" in str(err):
                return None
            raise
    return env.image, str(env.version)
