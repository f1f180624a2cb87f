"""Workspace assets through the MLClient: datastores (v1 ``Datastore.get``) and models (``run.register_model``)."""

from __future__ import annotations

from ...exceptions import UserErrorException
from .client import azure_errors, ml_client


def default_datastore_name(workspace) -> str:
    with azure_errors(workspace, "read the default datastore"):
        return ml_client(workspace).datastores.get_default().name


def datastore_names(workspace) -> list:
    with azure_errors(workspace, "list datastores"):
        return [store.name for store in ml_client(workspace).datastores.list()]


def check_datastore(workspace, name: str) -> None:
    from azure.core.exceptions import ResourceNotFoundError

    try:
        with azure_errors(workspace, f"read datastore {name!r}"):
            ml_client(workspace).datastores.get(name)
    except ResourceNotFoundError:
        raise UserErrorException(
            f"Datastore.get(ws, {name!r}): no datastore named {name!r} in workspace {workspace.name!r}. "
            "Use ws.get_default_datastore(), or register the datastore in the Azure ML studio (Data > Datastores)."
        ) from None


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
