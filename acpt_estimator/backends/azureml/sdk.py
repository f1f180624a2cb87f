"""The few private azure-ai-ml/azure-identity names we use, in one place (tests/unit/test_sdk_private.py checks them)."""

from __future__ import annotations

import logging

# The azure-ai-ml release these names were read from; setup.cfg caps azure-ai-ml below the next minor release.
TESTED_AZURE_AI_ML = "1.35"
# "This is an experimental class" for several schemas, and "an inline environment's name is not used".
NOISY_LOGGERS = ("azure.ai.ml._utils._experimental", "azure.ai.ml._schema.assets.environment")
# azure-identity's multi-line "failed to retrieve a token" warning comes from this logger.
CREDENTIAL_CHAIN_LOGGER = "azure.identity._credentials.chained"


def quiet_sdk_loggers() -> None:
    for name in NOISY_LOGGERS:
        logging.getLogger(name).setLevel(logging.ERROR)


def node_errors(node) -> list:
    """The SDK's local checks of a Command/Sweep node (no public validate runs offline for nodes)."""
    result = node._validate()
    return [] if result.passed else [result.error_messages]


def to_job(node):
    """The standalone CommandJob/SweepJob of a node (what ``jobs.create_or_update`` would send)."""
    return node._to_job()


def check_job(job) -> None:
    """The job-level check (it alone catches an undeclared ``${{inputs.x}}``); raises the SDK's exception."""
    job._validate()


def pipeline_errors(job) -> list:
    """The SDK's local checks of a PipelineJob (bindings between nodes and to the pipeline's inputs)."""
    result = job._validate()
    return [] if result.passed else [result.error_messages]


def job_dict(job) -> dict:
    """The job as the YAML-shaped dict that ``load_job`` and ``az ml job create`` read."""
    return job._to_dict()


# ---- REST bodies the v2 entities drop (v1's compute status, workspace sku, model version delete) ----------------
def compute_resource(client, workspace, name):
    """(v2 entity, REST body as JSON) of one compute: v1's status shows node counts and allocation state,
    which ``Compute`` drops."""
    from azure.ai.ml.entities import Compute

    rest = client.compute._operation.get(workspace.resource_group, workspace.name, name)
    return Compute._from_rest_object(rest), rest.as_dict()


def compute_resources(client, workspace) -> list:
    """(v2 entity, REST body) of every compute of the workspace."""
    from azure.ai.ml.entities import Compute

    rests = list(client.compute._operation.list(workspace.resource_group, workspace.name))
    return [(Compute._from_rest_object(rest), rest.as_dict()) for rest in rests]


def workspace_resource(client, resource_group, name) -> dict:
    """The workspace's ARM resource as JSON (``Workspace`` drops the sku and creation time that v1 reports)."""
    return client.workspaces._operation.get(resource_group, name).as_dict()


def delete_model_version(client, workspace, name, version) -> None:
    """v1 deleted a model version; MLClient only archives, the REST API still deletes."""
    client.models._model_versions_operation.delete(workspace.resource_group, workspace.name, name, str(version))


# ---- run history's metric v2 models (the generated client's, so the service's answers are read as it defines them) --
def metric_names_page(body: dict) -> tuple:
    """(metric names, continuationToken) of one ``PaginatedMetricDefinitionList`` answer."""
    from azure.ai.ml._restclient.runhistory.models import PaginatedMetricDefinitionList

    page = PaginatedMetricDefinitionList(body)
    return [d.metric_key.name for d in page.value or [] if d.metric_key], page.continuation_token


def metric_page(body: dict) -> tuple:
    """(MetricV2 as JSON, continuationToken) of one ``full`` answer; each value's time and step are parsed by the
    model (a malformed answer fails here), the cells are kept as the service sent them (the model types ``data`` as
    strings, which would turn 3 into '3'; the columns carry the types)."""
    from azure.ai.ml._restclient.runhistory.models import MetricV2

    metric = MetricV2(body)
    for value in metric.value or []:
        value.created_utc, value.step  # noqa: B018  (parse, raising on a malformed answer)
    shaped = {"name": metric.name, "columns": dict(metric.columns or {}),
              "properties": {"uxMetricType": metric.properties.ux_metric_type if metric.properties else None},
              "value": list(body.get("value") or [])}
    return shaped, metric.continuation_token
