"""Published pipelines in Azure ML: a v1 ``Pipeline.publish`` is a registered v2 pipeline component (its
PipelineSpec kept as a tag), ``PublishedPipeline.submit`` a pipeline job of that component with new inputs,
``disable``/``enable`` archive/restore the component version. Imports azure-ai-ml lazily."""

from __future__ import annotations

import hashlib
import json
import re

from ...exceptions import UserErrorException
from ...names import V1_NAME_TAG, new_run_id
from ...pipelines import codec
from .client import azure_errors, ml_client

SPEC_PROPERTY = "acpt_estimator.pipeline_spec"  # the PipelineSpec, JSON (codec), of a published pipeline
CONTINUE_PROPERTY = "acpt_estimator.continue_on_step_failure"
_COMPONENT = re.compile(r"[a-z][a-z0-9_]*")


def component_name(name: str) -> str:
    """v2 component names are ``[a-z][a-z0-9_]*``: a v1 name that is not becomes a readable form plus a hash of it
    (deterministic, so the same v1 name always lands on the same component)."""
    if _COMPONENT.fullmatch(name):
        return name
    readable = re.sub(r"[^a-z0-9_]+", "_", name.lower()).strip("_")[:200]
    readable = readable if readable[:1].isalpha() else f"p_{readable}".rstrip("_")
    return f"{readable}_{hashlib.sha256(name.encode('utf-8', 'surrogatepass')).hexdigest()[:8]}"


def published_id(name: str, version: str) -> str:
    """A published pipeline's id in Azure ML: ``<component name>:<version>`` (v1 used a GUID)."""
    return f"{name}:{version}"


def _split_id(published: str) -> tuple:
    name, sep, version = str(published).partition(":")
    if not sep or not name or not version:
        raise UserErrorException(f"Published pipeline id {published!r} is not an Azure ML one: they are "
                                 "'<component name>:<version>' (PublishedPipeline.list(ws) shows them).")
    return name, version


def _next_version(client, name: str) -> str:
    """v1 allowed publishing without a version; v2 components need one: one past the highest numeric version."""
    from azure.core.exceptions import ResourceNotFoundError

    try:
        versions = [c.version for c in client.components.list(name=name, list_view_type="All")]
    except ResourceNotFoundError:
        versions = []
    return str(max([int(v) for v in versions if str(v).isdigit()], default=0) + 1)


def to_pipeline_component(spec, name: str, version: str, description, continue_on_step_failure: bool):
    """The v2 pipeline component that ``Pipeline.publish(name, description, version)`` registers (no request)."""
    from azure.ai.ml.entities import PipelineComponent, PipelineJobSettings

    from .pipeline_translate import to_pipeline_job

    job = to_pipeline_job(spec)
    job.settings = PipelineJobSettings()  # settings belong to each job of the component (pipeline_job applies them)
    shape = job._to_component()  # the SDK's own PipelineJob -> PipelineComponent (anonymous: named below)
    # tags, not properties: azure-ai-ml reads a component's tags back (from its spec) but drops its properties
    return PipelineComponent(
        name=component_name(name), version=version, description=description, display_name=name,
        inputs=shape.inputs, outputs=shape.outputs, jobs=shape.jobs,
        tags={V1_NAME_TAG: name, SPEC_PROPERTY: json.dumps(codec.encode(spec)),
              CONTINUE_PROPERTY: str(bool(continue_on_step_failure))})


def publish(workspace, spec, name: str, description, version, continue_on_step_failure: bool) -> dict:
    """Register ``spec`` (translated to a v2 pipeline) as pipeline component ``component_name(name)``."""
    client = ml_client(workspace)
    with azure_errors(workspace, f"publish pipeline {name!r}"):
        if version in (None, ""):
            version = _next_version(client, component_name(name))
        component = to_pipeline_component(spec, name, str(version), description, continue_on_step_failure)
        created = client.components.create_or_update(component)
    return _record(created, False)


def _archived(client, name: str) -> set:
    """The archived versions of component ``name`` (the SDK's Component does not read isArchived back)."""
    return {c.version for c in client.components.list(name=name, list_view_type="ArchivedOnly")}


def _record(component, archived: bool) -> dict:
    """The v1 view of a registered pipeline component (the keys of the local store's records)."""
    properties = dict(getattr(component, "tags", None) or {})
    if SPEC_PROPERTY not in properties:
        raise UserErrorException(f"Component {component.name}:{component.version} is a pipeline component that was "
                                 "not published from a v1 pipeline; submit it with ml_client.jobs.create_or_update("
                                 "PipelineJob(component=...)).")
    spec = codec.decode(json.loads(properties[SPEC_PROPERTY]))
    return {"id": published_id(component.name, component.version), "name": properties.get(V1_NAME_TAG) or
            component.name, "description": component.description, "version": component.version,
            "status": "Disabled" if archived else "Active",
            "continueOnStepFailure": properties.get(CONTINUE_PROPERTY) == "True", "totalRunSteps": len(spec.steps),
            "stepNames": [s.display_name for s in spec.steps], "componentId": component.id, "spec": spec}


def get(workspace, published: str) -> dict:
    from azure.core.exceptions import ResourceNotFoundError

    name, version = _split_id(published)
    try:
        with azure_errors(workspace, f"read published pipeline {published!r}"):
            client = ml_client(workspace)
            return _record(client.components.get(name, version), version in _archived(client, name))
    except ResourceNotFoundError:
        raise UserErrorException(f"No published pipeline {published!r} (pipeline component {name}, version "
                                 f"{version}) in workspace {workspace.name!r}; list them with "
                                 "PublishedPipeline.list(ws).") from None


def all_published(workspace, active_only: bool = True) -> list:
    """Every version of every pipeline component published from a v1 pipeline."""
    client = ml_client(workspace)
    view = "ActiveOnly" if active_only else "All"
    records = []
    with azure_errors(workspace, "list published pipelines"):
        for container in client.components.list(list_view_type=view):
            archived = set() if active_only else _archived(client, container.name)
            for component in client.components.list(name=container.name, list_view_type=view):
                if getattr(component, "type", None) == "pipeline" and SPEC_PROPERTY in (component.tags or {}):
                    records.append(_record(component, component.version in archived))
    return records


def set_status(workspace, published: str, status: str) -> dict:
    """``disable``: archive the component version; ``enable``: restore it."""
    name, version = _split_id(published)
    client = ml_client(workspace)
    with azure_errors(workspace, f"{'restore' if status == 'Active' else 'archive'} published pipeline {published!r}"):
        if status == "Active":
            client.components.restore(name, version=version)
        else:
            client.components.archive(name, version=version)
    return get(workspace, published)


def pipeline_job(record: dict, values: dict, experiment_name: str, continue_on_step_failure: bool, tags=None):
    """The v2 PipelineJob that runs published pipeline ``record`` with parameter ``values``."""
    from azure.ai.ml.entities import PipelineJob

    import attrs

    from .pipeline_translate import apply_settings, parameter_input

    spec = record["spec"]
    inputs = {p.name: parameter_input(values[p.name]) for p in spec.parameters}
    # the component's ARM id: the SDK sends a component string as is (it resolves only entities)
    job = PipelineJob(component=record["componentId"], inputs=inputs or None, experiment_name=experiment_name,
                      display_name=record["name"], tags=dict(tags or {}) or None)
    apply_settings(job, attrs.evolve(spec, continue_on_step_failure=bool(continue_on_step_failure)))
    return job


def submit(workspace, experiment, record: dict, values: dict, continue_on_step_failure: bool):
    """Run published pipeline ``record`` once in ``experiment``; returns the CloudPipelineRun."""
    from .pipeline import CloudPipelineRun

    job = pipeline_job(record, values, experiment.name, continue_on_step_failure,
                       tags={"azureml.pipelineid": record["id"]})
    job.name = new_run_id(experiment.name)
    with azure_errors(workspace, f"submit published pipeline {record['id']!r} to experiment {experiment.name!r}"):
        created = ml_client(workspace).jobs.create_or_update(job, skip_validation=True)
    return CloudPipelineRun(experiment, created.name, record["spec"], created)
