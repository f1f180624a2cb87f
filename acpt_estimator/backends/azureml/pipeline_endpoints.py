"""v1 pipeline endpoints in Azure ML: a ``PipelineEndpoint`` is a v2 batch endpoint whose deployments are
``PipelineComponentBatchDeployment``s of published pipeline components (v1 version N is deployment ``version-N``),
the endpoint's default deployment is v1's default version, and ``submit`` invokes the endpoint (a pipeline job).
Records have the local store's keys (backends/local/published.py). Imports azure-ai-ml lazily."""

from __future__ import annotations

import hashlib
import re

from ...exceptions import UserErrorException
from ...names import V1_NAME_TAG
from . import publishing
from .client import azure_errors, ml_client

ENDPOINT_TAG = "acpt_estimator.pipeline_endpoint"  # marks the batch endpoints made from v1 PipelineEndpoints
PUBLISHED_TAG = "azureml.pipelineid"  # a deployment's published pipeline (v1 id: '<component>:<version>')
VERSION_TAG = "acpt_estimator.pipeline_endpoint_version"  # a deployment's v1 version number
_ENDPOINT = re.compile(r"[a-zA-Z][-a-zA-Z0-9]{1,30}[a-zA-Z0-9]")  # azure-ai-ml's endpoint and deployment names


def endpoint_name(name: str) -> str:
    """v2 endpoint names are 3-32 of ``[a-zA-Z0-9-]``, a letter first, lower-cased by azure-ai-ml (the service's
    names ignore case): another v1 name becomes a readable form plus a hash of it (deterministic, so the same v1 name
    always lands on the same endpoint)."""
    if _ENDPOINT.fullmatch(name):
        return name.lower()
    readable = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    readable = readable if readable[:1].isalpha() else f"pe-{readable}"
    digest = hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()[:8]
    return f"{readable[:23].rstrip('-')}-{digest}"


def deployment_name(version) -> str:
    return f"version-{version}"


def to_endpoint(name: str, description):
    """The v2 BatchEndpoint of ``PipelineEndpoint.publish(ws, name, description, ...)`` (no request)."""
    from azure.ai.ml.entities import BatchEndpoint

    if not name:
        raise UserErrorException("PipelineEndpoint.publish(name=...): a pipeline endpoint needs a name.")
    return BatchEndpoint(name=endpoint_name(name), description=description,
                         tags={V1_NAME_TAG: name, ENDPOINT_TAG: "True"})


def to_deployment(endpoint: str, version, published: dict):
    """The deployment of published pipeline ``published`` (publishing.get's record) as version ``version``."""
    from azure.ai.ml.entities import PipelineComponentBatchDeployment

    # the component's ARM id: the SDK resolves a string component to an id without creating anything
    return PipelineComponentBatchDeployment(
        name=deployment_name(version), endpoint_name=endpoint, component=published["componentId"],
        description=published["description"],
        settings={"continue_on_step_failure": bool(published["continueOnStepFailure"])},
        tags={PUBLISHED_TAG: published["id"], VERSION_TAG: str(version)})


def _default_of(endpoint) -> str | None:
    defaults = endpoint.defaults
    if isinstance(defaults, dict):
        return defaults.get("deployment_name") or defaults.get("deploymentName")
    return getattr(defaults, "deployment_name", None)


def _record(client, endpoint) -> dict:
    """The v1 view of a batch endpoint made from a PipelineEndpoint: its versions are its deployments."""
    tags = dict(endpoint.tags or {})
    versions, by_deployment = {}, {}
    for deployment in client.batch_deployments.list(endpoint_name=endpoint.name):
        deployment_tags = dict(deployment.tags or {})
        if VERSION_TAG in deployment_tags and PUBLISHED_TAG in deployment_tags:
            versions[deployment_tags[VERSION_TAG]] = deployment_tags[PUBLISHED_TAG]
            by_deployment[deployment.name] = deployment_tags[VERSION_TAG]
    return {"id": endpoint.name, "name": tags.get(V1_NAME_TAG) or endpoint.name, "description": endpoint.description,
            "status": "Active", "defaultVersion": by_deployment.get(_default_of(endpoint)),
            "versions": dict(sorted(versions.items(), key=lambda item: int(item[0]))),
            "endpoint": endpoint.scoring_uri}


def _get_endpoint(client, workspace, name: str):
    from azure.core.exceptions import ResourceNotFoundError

    try:
        endpoint = client.batch_endpoints.get(endpoint_name(name))
    except ResourceNotFoundError:
        endpoint = None
    if endpoint is None or ENDPOINT_TAG not in (endpoint.tags or {}):
        raise UserErrorException(f"No pipeline endpoint {name!r} (batch endpoint {endpoint_name(name)!r}) in "
                                 f"workspace {workspace.name!r}; list them with PipelineEndpoint.list(ws).")
    return endpoint


def get(workspace, name: str) -> dict:
    client = ml_client(workspace)
    with azure_errors(workspace, f"read pipeline endpoint {name!r}"):
        return _record(client, _get_endpoint(client, workspace, name))


def all_endpoints(workspace) -> list:
    """Every batch endpoint of the workspace made from a v1 PipelineEndpoint (others are not v1 endpoints)."""
    client = ml_client(workspace)
    with azure_errors(workspace, "list pipeline endpoints"):
        return [_record(client, e) for e in client.batch_endpoints.list() if ENDPOINT_TAG in (e.tags or {})]


def _deploy(client, endpoint: str, version, published: dict) -> None:
    client.batch_deployments.begin_create_or_update(to_deployment(endpoint, version, published)).result()


def _set_default(client, endpoint, version) -> None:
    endpoint.defaults = {"deployment_name": deployment_name(version)}
    client.batch_endpoints.begin_create_or_update(endpoint).result()


def publish(workspace, name: str, description, published: dict) -> dict:
    """A new batch endpoint whose deployment ``version-0`` (its default) runs published pipeline ``published``."""
    from azure.core.exceptions import ResourceNotFoundError

    client = ml_client(workspace)
    endpoint = to_endpoint(name, description)
    with azure_errors(workspace, f"publish pipeline endpoint {name!r}"):
        try:
            client.batch_endpoints.get(endpoint.name)
            raise UserErrorException(f"Pipeline endpoint {name!r} (batch endpoint {endpoint.name!r}) already "
                                     "exists; add versions with PipelineEndpoint.get(ws, name=...)."
                                     "add_default(published_pipeline).")
        except ResourceNotFoundError:
            pass
        # the deployment needs its endpoint, and the endpoint's default needs the deployment: three requests
        created = client.batch_endpoints.begin_create_or_update(endpoint).result()
        _deploy(client, created.name, 0, published)
        _set_default(client, client.batch_endpoints.get(created.name), 0)
    return get(workspace, name)


def add(workspace, name: str, published: dict, make_default: bool) -> dict:
    """One more version (the highest plus one) running ``published``; the default too when ``make_default``."""
    client = ml_client(workspace)
    with azure_errors(workspace, f"add {published['id']!r} to pipeline endpoint {name!r}"):
        endpoint = _get_endpoint(client, workspace, name)
        version = str(max((int(v) for v in _record(client, endpoint)["versions"]), default=-1) + 1)
        _deploy(client, endpoint.name, version, published)
        if make_default:
            _set_default(client, client.batch_endpoints.get(endpoint.name), version)
    return get(workspace, name)


def set_default(workspace, name: str, version) -> dict:
    client = ml_client(workspace)
    with azure_errors(workspace, f"set the default version of pipeline endpoint {name!r}"):
        endpoint = _get_endpoint(client, workspace, name)
        versions = _record(client, endpoint)["versions"]
        if str(version) not in versions:
            raise UserErrorException(f"Pipeline endpoint {name!r} has versions {sorted(versions, key=int)}, not "
                                     f"{version!r}; add the published pipeline with add() first.")
        _set_default(client, endpoint, version)
    return get(workspace, name)


def scoring_uri_of(workspace, published_id: str) -> str | None:
    """The scoring URI of a pipeline endpoint that deploys ``published_id`` (its default first), else None."""
    found = [e for e in all_endpoints(workspace) if published_id in e["versions"].values()]
    found.sort(key=lambda e: e["versions"].get(e["defaultVersion"]) != published_id)
    return found[0]["endpoint"] if found else None


def submit(workspace, experiment, record: dict, version: str, published: dict, values: dict):
    """Invoke pipeline endpoint ``record``'s deployment of ``version`` with parameter ``values`` in ``experiment``
    (the service starts a pipeline job of the deployed component); returns the CloudPipelineRun."""
    from azure.ai.ml import Input

    from .pipeline import CloudPipelineRun
    from .pipeline_translate import parameter_input

    inputs = {}
    for key, value in values.items():
        value = parameter_input(value)
        if not isinstance(value, Input):  # a literal: typed as the SDK's batch job schema writes it
            kind = "boolean" if isinstance(value, bool) else "integer" if isinstance(value, int) else \
                "number" if isinstance(value, float) else "string"
            value = Input(type=kind, default=value if kind != "string" else str(value))
        inputs[key] = value
    client = ml_client(workspace)
    with azure_errors(workspace, f"invoke pipeline endpoint {record['name']!r} (version {version})"):
        batch_job = client.batch_endpoints.invoke(endpoint_name=record["id"], deployment_name=deployment_name(version),
                                                  inputs=inputs, experiment_name=experiment.name)
        created = client.jobs.get(batch_job.name)
    return CloudPipelineRun(experiment, created.name, published["spec"], created)
