"""Where publishing lives: the local store for local workspaces, Azure ML (pipeline components, job schedules) for
Azure ML workspaces; v1's REST pipeline endpoints have no v2 form and refuse there."""

from __future__ import annotations

from acpt_estimator.services import is_local
from acpt_estimator.v1._refusal import refuse

ENDPOINT_REPLACEMENT = (
    "the published pipeline is a registered v2 pipeline component (PublishedPipeline.get(ws, id) and .submit(...) "
    "work); for a REST endpoint create a v2 batch endpoint with a pipeline component deployment: "
    "ml_client.batch_endpoints.begin_create_or_update(BatchEndpoint(name)), then ml_client.batch_deployments."
    "begin_create_or_update(PipelineComponentBatchDeployment(name, endpoint_name, component='azureml:<name>:"
    "<version>')), and invoke it with ml_client.batch_endpoints.invoke(endpoint_name, inputs=...)")


def in_cloud(workspace) -> bool:
    """True when ``workspace`` is an Azure ML workspace (publish and schedule there), False for the local store."""
    return not is_local(workspace)


def check_local_endpoint(workspace, member: str) -> None:
    """Pipeline endpoints are kept in the local store; on an Azure ML workspace they refuse (no silent no-op)."""
    if in_cloud(workspace):
        refuse(member, "v1's pipeline endpoints (a REST URL over versions of published pipelines) have no v2 "
                       "resource of their own, and this release does not create batch endpoints for you.",
               ENDPOINT_REPLACEMENT)
