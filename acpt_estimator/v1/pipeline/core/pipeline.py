"""v1 ``azureml.pipeline.core.pipeline``: ``Pipeline(workspace, steps)`` -> one PipelineSpec -> a backend."""

from __future__ import annotations

import logging

import attrs

from acpt_estimator.exceptions import UserErrorException
from acpt_estimator.pipelines import dag
from acpt_estimator.pipelines.spec import PipelineSpec, StepBuildContext
from acpt_estimator.v1._refusal import refused

from ._step_io import output_port_name
from .builder import PipelineData, PipelineStep, StepSequence

logger = logging.getLogger(__name__)


class Pipeline:
    """A collection of steps run as one pipeline (v2: one pipeline job; locally: a DAG of local jobs)."""

    def __init__(self, workspace, steps, description=None, default_datastore=None, default_source_directory=None,
                 resolve_closure=True, _workflow_provider=None, _service_endpoint=None, **kwargs):
        unknown = sorted(set(kwargs) - {"continue_on_step_failure"})
        if unknown:
            raise TypeError(f"Pipeline() got unexpected keyword arguments {unknown}")
        if not isinstance(steps, (list, tuple, StepSequence, PipelineStep, PipelineData)):
            raise ValueError(f"Pipeline(steps={steps!r}): pass a list of steps, a StepSequence, or one step.")
        self._workspace, self._description = workspace, description
        self._default_datastore, self._default_source_directory = default_datastore, default_source_directory
        self._resolve_closure = resolve_closure
        self._continue_on_step_failure = bool(kwargs.get("continue_on_step_failure", False))
        self._steps, self._after = self._collect(steps)

    # ---- building ----------------------------------------------------------------------------------
    def _collect(self, steps):
        """Every step of the pipeline (given ones first, then the producers they need) and sequence pairs."""
        found, after = [], []

        def add(item):
            if isinstance(item, StepSequence):
                flat, pairs = item._ordered()
                after.extend(pairs)
                for step in flat:
                    add(step)
            elif isinstance(item, (list, tuple)):
                for sub in item:
                    add(sub)
            elif isinstance(item, PipelineData):
                if item._producer is None:
                    raise ValueError(f"Cannot build graph as step output [{item.name}] does not have a producer. "
                                     "Please add to the outputs list of the step that produces it")
                add(item._producer)
            elif isinstance(item, PipelineStep):
                if not any(item is s for s in found):
                    found.append(item)
            else:
                raise NotImplementedError(f"Can not add object of type {type(item).__name__} to Pipeline.")

        add(steps)
        index = 0
        while index < len(found):  # v1's resolve_closure: producers and run_after steps join the pipeline
            step = found[index]
            needed = [getattr(getattr(i, "bind_object", i), "_producer", None) for i in step._inputs]
            needed += list(step.run_after_steps)
            for other in needed:
                if other is not None and not any(other is s for s in found):
                    if not self._resolve_closure:
                        raise ValueError(f"Step [{step.name}] needs step [{other.name}], which is not in the "
                                         "pipeline (resolve_closure=False); add it to steps.")
                    found.append(other)
            index += 1
        return found, after

    def _to_spec(self, experiment_name=None, tags=None, continue_on_step_failure=None) -> PipelineSpec:
        nodes = dag.node_names([s.name for s in self._steps])
        node_of = {id(s): n for s, n in zip(self._steps, nodes)}
        producers, promoted = {}, {}
        for step, node in zip(self._steps, nodes):
            for output in step._outputs:
                producers.setdefault(output_port_name(output), node)
                if getattr(output, "_pipeline_output_name", None):
                    promoted[output._pipeline_output_name] = output_port_name(output)
        datastore = getattr(self._default_datastore, "name", self._default_datastore)
        specs, parameters = [], {}
        for step, node in zip(self._steps, nodes):
            context = StepBuildContext(node_name=node, default_source_directory=self._default_source_directory,
                                       default_datastore=datastore, producers=producers)
            spec = step._to_step_spec(context)
            waits = [node_of[id(s)] for s in step.run_after_steps if id(s) in node_of]
            waits += [node_of[id(before)] for s, before in self._after if s is step and id(before) in node_of]
            spec = attrs.evolve(spec, run_after=tuple(dict.fromkeys(tuple(spec.run_after) + tuple(waits))))
            for param in spec.parameters:
                old = parameters.get(param.name)
                if old is not None and old.default != param.default:
                    raise UserErrorException(f"Pipeline parameters with same name {param.name} but different values "
                                             f"{old.default!r}, {param.default!r} used; give them distinct names.")
                parameters[param.name] = param
            specs.append(spec)
        cont = self._continue_on_step_failure if continue_on_step_failure is None else continue_on_step_failure
        return PipelineSpec(steps=tuple(specs), parameters=tuple(parameters.values()), description=self._description,
                            continue_on_step_failure=bool(cont), default_datastore=datastore,
                            experiment_name=experiment_name, tags=dict(tags or {}), pipeline_outputs=promoted)

    def validate(self):
        """v1: the list of problems found (empty when the pipeline can run); nothing is submitted."""
        try:
            spec = self._to_spec()
        except (ValueError, UserErrorException) as err:
            return [str(err)]
        errors = dag.problems(spec)
        for error in errors:
            print(error)
        return errors

    @property
    def graph(self):
        """The steps and the data edges between them (a read-only summary; v1's Graph object is not rebuilt)."""
        from acpt_estimator.pipelines.graph_view import GraphView

        return GraphView(self._to_spec())

    # ---- running -----------------------------------------------------------------------------------
    def submit(self, experiment_name, pipeline_parameters=None, continue_on_step_failure=False,
               regenerate_outputs=False, parent_run_id=None, credential_passthrough=None, **kwargs):
        from acpt_estimator.v1.core.experiment import Experiment

        return Experiment(self._workspace, experiment_name).submit(
            self, pipeline_parameters=pipeline_parameters, continue_on_step_failure=continue_on_step_failure,
            regenerate_outputs=regenerate_outputs, parent_run_id=parent_run_id,
            credential_passthrough=credential_passthrough, **kwargs)

    def _submit(self, experiment, tags=None, pipeline_parameters=None, continue_on_step_failure=None,
                regenerate_outputs=False, parent_run_id=None, credential_passthrough=None, **kwargs):
        """``Experiment.submit(pipeline, ...)``: v1's keyword arguments, then the backend the steps select."""
        from .run import PipelineRun
        from ._submit import submit_pipeline_spec

        if kwargs:
            raise UserErrorException(f"Experiment.submit(Pipeline, {', '.join(sorted(kwargs))}=...) is not a "
                                     "pipeline option; use pipeline_parameters=, continue_on_step_failure=, "
                                     "regenerate_outputs= or tags=.")
        if parent_run_id is not None or credential_passthrough:
            logger.warning("Pipeline submit: parent_run_id/credential_passthrough are not used (v2 pipeline jobs have "
                           "no parent run; identity is set on the job).")
        spec = self._to_spec(experiment.name, tags, continue_on_step_failure)
        handle = submit_pipeline_spec(spec, experiment, pipeline_parameters, regenerate_outputs, self._workspace)
        return PipelineRun._of_pipeline(experiment, handle)

    # ---- publishing --------------------------------------------------------------------------------
    def publish(self, name=None, description=None, version=None, continue_on_step_failure=None):
        """Keep this pipeline by id, to submit again with new parameters (local store; see PublishedPipeline)."""
        from .published_pipeline import publish

        return publish(self, name, description, version, continue_on_step_failure)

    load_yaml = refused("Pipeline.load_yaml", "v1's pipeline YAML format (a v1 graph description) has no v2 reader.",
                        "a v2 pipeline job YAML: azure.ai.ml.load_job('pipeline.yml') (acpt-estimator convert writes "
                        "one from this pipeline)")
    service_endpoint = refused("Pipeline.service_endpoint", "v1's pipeline service endpoint does not exist in v2.",
                               "MLClient(...).jobs (the workspace's v2 job API)")

    def __repr__(self) -> str:
        return f"Pipeline(steps={[s.name for s in self._steps]})"
