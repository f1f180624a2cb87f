"""PipelineSpec -> one ``azure.ai.ml`` PipelineJob (nodes wired by ``${{parent.jobs.<step>.outputs.<name>}}``),
validated by the SDK; imports azure-ai-ml lazily."""

from __future__ import annotations

from importlib import import_module

from ...exceptions import TrainingException
from ...pipelines import dag
from ...pipelines.spec import STEP_KINDS
from ...spec import DataInput
from . import sdk
from .translate import _INPUT_MODES, _azure_ml


class V2StepContext:
    """What a step kind's ``to_v2_node`` gets: the pipeline job being built and the environment build folder."""

    def __init__(self, pipeline_job, context_root=None, values=None, step_names=()):
        self.pipeline_job, self.context_root = pipeline_job, context_root
        self.step_names = frozenset(step_names)  # every step's node name (a follower node must not take one)
        self.values = dict(values or {})  # parameter name -> the value this job is created with
        self.followers: list = []  # nodes a step adds after its own (a sweep's TrainingOutputs writer)

    def add_follower(self, node) -> None:
        self.followers.append(node)

    def bind_parameters(self, node, step) -> None:
        """Each pipeline parameter the step's node takes as an input reads the pipeline's input of that name (one
        that only sets a process count has no input: the count is fixed when the job is created)."""
        for param in step.parameters:
            target = param.default.name if param.kind == "datapath" else param.name
            if target in (node.inputs or {}):
                setattr(node.inputs, target, self.pipeline_job.inputs[param.name])


def parameter_input(value):
    """A pipeline input's v2 value: a literal as is, a DataPath's input as an ``Input``."""
    from azure.ai.ml import Input

    if isinstance(value, DataInput):
        return Input(type=value.uri_type, path=value.uri, mode=_INPUT_MODES[value.mode])
    return value


def to_pipeline_job(spec, values: dict | None = None, *, context_root=None, validate: bool = True,
                    regenerate_outputs: bool = False):
    """The v2 PipelineJob of ``spec`` with ``values`` (parameter name -> value; defaults when absent)."""
    _azure_ml()
    from azure.ai.ml.entities import PipelineJob

    dag.check(spec)
    for step in spec.steps:  # a step v2 cannot run refuses before anything is built
        if step.kind == "refused":
            from ...exceptions import V1NotSupportedException

            raise V1NotSupportedException(step.refusal)
    values = spec.parameter_values(values)
    job = PipelineJob(
        jobs={}, inputs={p.name: parameter_input(values[p.name]) for p in spec.parameters} or None,
        description=spec.description, experiment_name=spec.experiment_name, display_name=spec.display_name,
        tags=dict(spec.tags) or None)
    apply_settings(job, spec, regenerate_outputs)
    context = V2StepContext(job, context_root, values, step_names=[s.name for s in spec.steps])
    for step in _with_control_edges(spec):
        node = import_module(STEP_KINDS[step.kind]).to_v2_node(step, context)
        context.bind_parameters(node, step)
        job.jobs[step.name] = node
        for follower in context.followers:
            job.jobs[follower.name] = follower
        context.followers.clear()
    if validate:
        validate_pipeline_job(job)
    return job


def apply_settings(job, spec, regenerate_outputs: bool = False) -> None:
    """The pipeline job's settings from ``spec`` (a pipeline component keeps none: they are set per job)."""
    job.settings.continue_on_step_failure = spec.continue_on_step_failure
    if spec.default_datastore:
        job.settings.default_datastore = spec.default_datastore
    if regenerate_outputs:
        job.settings.force_rerun = True
    if any(s.job is not None and s.job.compute.target in (None, "local") for s in spec.steps):
        job.settings.default_compute = "serverless"  # v2 checks that every node has compute


CONTROL_OUTPUT = "acpt_done"


def _producers(spec) -> dict:
    """(step, output name) -> (node, v2 type) for outputs written by a node other than the step's own (a kind's
    ``v2_producers``: a HyperDriveStep's TrainingOutputs are written by a node after its sweep node)."""
    found = {}
    for step in spec.steps:
        producers = getattr(import_module(STEP_KINDS[step.kind]), "v2_producers", None)
        for output, producer in (producers(step) if producers else {}).items():
            found[(step.name, output)] = producer
    return found


def _with_control_edges(spec) -> list:
    """The steps in dependency order, ready for any kind's ``to_v2_node``: linked inputs read
    ``${{parent.jobs.<node>.outputs.<name>}}``, and each ``run_after`` without data is a data edge (v2 orders nodes
    only by data, so the earlier node writes an empty ``acpt_done`` output that the later one takes as an input;
    a step with a follower node, which waits on it the same way, writes one too)."""
    import attrs

    from ...datastore_paths import datastore_uri
    from ...pipelines.spec import StepLink
    from ...spec import DataOutput

    order = dag.topological_order(spec)
    producers = _producers(spec)
    waited_on = {before for s in spec.steps for before in s.run_after
                 if not any(link.step == before for link in s.links)} | {step for step, _ in producers}
    store = spec.default_datastore or "workspaceblobstore"
    path = "azureml/{run-id}/{output-name}"
    steps = []
    for name in order:
        step = spec.step(name)
        job = step.job
        if name in waited_on:
            job = attrs.evolve(job, outputs=tuple(job.outputs) + (DataOutput(
                name=CONTROL_OUTPUT, reference_name=CONTROL_OUTPUT, uri=datastore_uri(store, path), datastore=store,
                path_on_datastore=path, mode="mount"),))
        links, inputs = list(step.links), list(job.inputs)
        for before in step.run_after:
            if not any(link.step == before for link in step.links):
                input_name = f"acpt_after_{before}"
                inputs.append(DataInput(name=input_name, reference_name=input_name, kind="step_output", mode="mount",
                                        uri_type="uri_folder", uri=f"step://{before}/{CONTROL_OUTPUT}"))
                links.append(StepLink(input_name, before, CONTROL_OUTPUT))
        bound = {link.input_name: (link.step, link.output) for link in links}
        inputs = [_bound(i, *bound[i.name], producers) if i.name in bound else i for i in inputs]
        steps.append(attrs.evolve(step, job=attrs.evolve(job, inputs=tuple(inputs)), links=tuple(links)))
    return steps


def _bound(item, step: str, output: str, producers: dict):
    """A linked input reading the node that writes ``output`` (a file output is read as one)."""
    import attrs

    node, uri_type = producers.get((step, output), (step, item.uri_type))
    return attrs.evolve(item, uri="${{parent.jobs.%s.outputs.%s}}" % (node, output), uri_type=uri_type)


def validate_pipeline_job(job) -> None:
    """The SDK's own checks of the pipeline and of every node."""
    for name, node in job.jobs.items():
        errors = sdk.node_errors(node)
        if errors:
            raise TrainingException(f"The translated v2 pipeline node {name!r} is invalid: {errors[0]}")
    errors = sdk.pipeline_errors(job)
    if errors:
        raise TrainingException(f"The translated v2 pipeline job is invalid: {errors[0]}")
