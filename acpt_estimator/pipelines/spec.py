"""PipelineSpec and StepSpec: the frozen, backend-neutral description of a pipeline of steps joined by data.

How the pieces fit (the contract between the v1 step classes and the engine):

- A v1 step (``acpt_estimator.v1.pipeline.core.builder.PipelineStep`` subclass) implements one method,
  ``_to_step_spec(context: StepBuildContext) -> StepSpec``. It is pure: no I/O, no azure import. The v1
  ``Pipeline`` calls it once per step, in the order steps were given, with a context naming the step's node name,
  the pipeline's defaults and the pipeline parameters' values.
- A step's job is an ordinary ``JobSpec`` (``acpt_estimator.spec``): its ``arguments`` may hold ``InputRef`` /
  ``OutputRef`` tokens as in single jobs, plus ``ParamRef`` tokens for pipeline parameters. Data passed between steps
  is declared twice: the producer lists a ``DataOutput`` in ``job.outputs`` (named by ``StepSpec.produces``' entry) and
  the consumer lists a ``DataInput`` of ``kind="step_output"`` (``uri="step://<node>/<output>"``, a placeholder) in
  ``job.inputs`` whose name appears in ``StepSpec.links`` with the producer's node name and output name. Backends replace a linked input's ``uri`` with the producer's output
  (``${{parent.jobs.<node>.outputs.<name>}}`` in v2, the producer's output folder locally).
- ``kind`` picks what runs the step:
    * ``"command"``: ``job`` runs as one (possibly MPI/distributed) job.
    * ``"sweep"``: ``job`` is the trial (swept values as ``SearchRef`` tokens); ``sweep`` holds the search
      (``SweepSettings``: sampling, objective, limits, policy, and the v1 TrainingOutputs written after the trials).
    * ``"parallel"``: ``job`` holds entry script, source, environment, compute, ``distribution``
      (node_count x process_count_per_node) and the data inputs; ``parallel`` holds the mini-batch settings.
    * ``"refused"``: a v1 step with no v2 equivalent; ``refusal`` is the message raised at submit.
  A new kind plugs in by adding a module that provides ``to_local_job(step, context) -> JobSpec`` (what the local
  DAG runner runs through the existing local backend; a kind that runs it another way also provides
  ``start_local(step, job, pipeline_run)`` returning a run handle, as the sweep kind starts the local HyperDrive
  engine) and ``to_v2_node(step, context)`` (an azure.ai.ml node), and
  listing it in ``STEP_KINDS`` below (module path, imported lazily).
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any, Mapping

import attrs

from ..spec import JobSpec

# kind -> module implementing to_local_job(step, context) and to_v2_node(step, context); imported when used.
STEP_KINDS: Mapping[str, str] = MappingProxyType({
    "command": "acpt_estimator.pipelines.kinds.command",
    "sweep": "acpt_estimator.pipelines.kinds.sweep",
    "parallel": "acpt_estimator.pipelines.kinds.parallel",
    "refused": "acpt_estimator.pipelines.kinds.refused",
})


def _frozen_map(value: Mapping | None) -> Mapping:
    return MappingProxyType(dict(value or {}))


@attrs.frozen
class ParamRef:
    """An argv token (in ``JobSpec.arguments``) that becomes the value of pipeline parameter ``name``."""

    name: str


@attrs.frozen
class PipelineParameterSpec:
    """A pipeline parameter: its name and default; ``kind`` is "literal" (str/int/float/bool) or "datapath"."""

    name: str
    default: Any
    kind: str = "literal"  # "literal" | "datapath" (default is a DataInput)


@attrs.frozen
class StepLink:
    """The consumer's input ``input_name`` is the producer node ``step``'s output ``output``."""

    input_name: str
    step: str
    output: str


@attrs.frozen
class ParallelSettings:
    """v1 ``ParallelRunConfig``'s mini-batch settings (the rest lives in the step's JobSpec).

    ``input_names`` are the step inputs split into mini-batches; ``output_name`` the step output that receives
    ``append_row_file_name``. ``options`` carries anything further a backend needs (kept as strings).
    """

    mini_batch_size: str | None = None
    error_threshold: int = -1
    allowed_failed_count: int | None = None
    allowed_failed_percent: float | None = None
    output_action: str = "append_row"  # "append_row" | "summary_only"
    append_row_file_name: str = "parallel_run_step.txt"
    run_invocation_timeout: int = 60
    run_max_try: int = 3
    logging_level: str = "INFO"
    partition_keys: tuple = ()
    input_names: tuple = ()
    side_input_names: tuple = ()
    output_name: str | None = None
    options: Mapping[str, str] = attrs.field(factory=dict, converter=_frozen_map)


@attrs.frozen
class TrainingOutputSpec:
    """v1 ``TrainingOutput`` of a sweep step: ``output`` (a DataOutput) receives the trials' metrics as JSON
    ("Metrics") or the best trial's ``model_file`` ("Model"; its whole ``outputs/`` folder without one)."""

    output: Any
    type: str  # "Metrics" | "Model"
    model_file: str | None = None


@attrs.frozen
class SweepSettings:
    """A sweep step's search (v1 ``HyperDriveConfig`` minus its trial): the step's ``job`` is the trial, its
    arguments ending with ``--<name> SearchRef(<v2 name>)`` per swept parameter."""

    sampling: str  # v1's SAMPLING_NAME: "RANDOM" | "GRID" | "BayesianOptimization"
    parameter_space: Mapping[str, Any] = attrs.field(converter=_frozen_map)  # v1 name -> (kind, args)
    primary_metric_name: str = ""
    primary_metric_goal: str = "maximize"  # "maximize" | "minimize"
    max_total_runs: int = 1
    max_concurrent_runs: int = 1
    max_duration_minutes: int | None = None
    sampling_properties: Mapping[str, Any] = attrs.field(factory=dict, converter=_frozen_map)
    policy: str = "Default"  # v1's POLICY_NAME: "Default" | "Bandit" | "MedianStopping" | "TruncationSelection"
    policy_properties: Mapping[str, Any] = attrs.field(factory=dict, converter=_frozen_map)
    training_outputs: tuple = ()  # TrainingOutputSpec, written after the trials (not by them)


@attrs.frozen
class StepSpec:
    """One step of a pipeline: a node name unique in the pipeline, what runs, and how it is joined to the others."""

    name: str  # the node name: unique in the pipeline, a valid v2 node name (a Python identifier)
    kind: str  # see STEP_KINDS
    job: JobSpec | None
    display_name: str = ""  # v1's step name as the user wrote it (not necessarily unique)
    links: tuple = ()  # StepLink: inputs fed by other steps' outputs
    produces: tuple = ()  # names of job.outputs other steps may consume (v1 PipelineData / OutputFileDatasetConfig)
    run_after: tuple = ()  # node names this step waits for without data (v1 step.run_after)
    allow_reuse: bool = True
    hash_paths: tuple = ()  # v1 hash_paths: accepted; reuse hashes the whole snapshot (v1 >= 1.x did too)
    sweep: SweepSettings | None = None  # kind "sweep"
    parallel: ParallelSettings | None = None  # kind "parallel"
    refusal: str = ""  # kind "refused": the message raised at submit
    parameters: tuple = ()  # PipelineParameterSpec of each pipeline parameter the step uses (step_io's .parameters)
    # v1 params={name: PipelineParameter}: environment variable (AML_PARAMETER_<name>) -> parameter name
    variable_parameters: Mapping[str, str] = attrs.field(factory=dict, converter=_frozen_map)
    # v1 runconfig_pipeline_params / MpiStep counts: "node_count" | "process_count_per_node" -> parameter name
    distribution_parameters: Mapping[str, str] = attrs.field(factory=dict, converter=_frozen_map)

    def __attrs_post_init__(self):
        if self.kind not in STEP_KINDS:
            raise ValueError(f"StepSpec kind={self.kind!r}: use one of {sorted(STEP_KINDS)}")

    @property
    def upstream(self) -> tuple:
        """Node names this step waits for: data producers first, then run_after, without repeats."""
        seen = []
        for name in [link.step for link in self.links] + list(self.run_after):
            if name not in seen:
                seen.append(name)
        return tuple(seen)


@attrs.frozen
class PipelineSpec:
    """A whole pipeline: steps (in the order given), parameters and run-wide settings."""

    steps: tuple
    parameters: tuple = ()  # PipelineParameterSpec
    description: str | None = None
    continue_on_step_failure: bool = False
    default_datastore: str | None = None
    default_compute: str | None = None
    experiment_name: str | None = None
    display_name: str | None = None
    tags: Mapping[str, str] = attrs.field(factory=dict, converter=_frozen_map)
    # v1 PipelineData(pipeline_output_name=...): the name get_pipeline_output takes -> the step output's name
    pipeline_outputs: Mapping[str, str] = attrs.field(factory=dict, converter=_frozen_map)

    def step(self, name: str) -> StepSpec:
        for step in self.steps:
            if step.name == name:
                return step
        raise KeyError(name)

    def parameter_values(self, overrides: Mapping | None = None) -> dict:
        """Each parameter's value for a run: the default unless ``overrides`` (``pipeline_parameters=``) names it."""
        values = {p.name: p.default for p in self.parameters}
        values.update(overrides or {})
        return values


@attrs.frozen
class StepBuildContext:
    """What a v1 step needs to build its StepSpec: its node name and the pipeline's defaults."""

    node_name: str
    default_source_directory: str | None = None
    default_datastore: str | None = None
    default_compute: str | None = None
    parameters: Mapping[str, Any] = attrs.field(factory=dict, converter=_frozen_map)  # name -> default value
    # output name (v1 PipelineData/OutputFileDatasetConfig name, unique in a pipeline) -> producer's node name
    producers: Mapping[str, str] = attrs.field(factory=dict, converter=_frozen_map)

    def producer_of(self, output_name: str) -> str | None:
        """The node name of the step that writes ``output_name``, or None when no step of the pipeline does."""
        return self.producers.get(output_name)

