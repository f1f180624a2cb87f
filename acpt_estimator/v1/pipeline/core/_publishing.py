"""Where publishing lives: the local store for local workspaces, Azure ML (pipeline components, job schedules) for
Azure ML workspaces; pipeline endpoints are v2 batch endpoints there."""

from __future__ import annotations

from acpt_estimator.services import is_local

ENDPOINT_REPLACEMENT = (
    "PipelineEndpoint.publish(ws, name, description, published_pipeline): a v2 batch endpoint whose deployment runs "
    "the published pipeline's component; its scoring URI is then this pipeline's endpoint (POST a batch job to it, "
    "or ml_client.batch_endpoints.invoke(endpoint_name, inputs=...))")


def in_cloud(workspace) -> bool:
    """True when ``workspace`` is an Azure ML workspace (publish and schedule there), False for the local store."""
    return not is_local(workspace)
