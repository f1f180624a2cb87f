"""v1 ``azureml.pipeline.steps.hyper_drive_step``: a HyperDrive sweep as a pipeline step.

Locally the trials run through the local HyperDrive engine; on Azure ML the step is a v2 sweep node. The step's
outputs are the best trial's; ``metrics_output`` (and outputs with ``TrainingOutput``) are written after the trials,
as v1's service did: locally by the step, on Azure ML by a command node after the sweep node.
"""

from __future__ import annotations

import copy

import attrs

from acpt_estimator.pipelines.spec import StepSpec, SweepSettings, TrainingOutputSpec
from acpt_estimator.spec import ComputeSpec, Literal, SearchRef
from acpt_estimator.v1.data.data_reference import DataReference
from acpt_estimator.v1.pipeline.core._step_io import output_port_name, step_io
from acpt_estimator.v1.pipeline.core.builder import PipelineData, PipelineStep
from acpt_estimator.v1.pipeline.core.graph import OutputPortBinding, ParamDef, TrainingOutput
from acpt_estimator.v1.train.hyperdrive.run import HyperDriveRun
from acpt_estimator.v1.train.hyperdrive.runconfig import HyperDriveConfig, _without_swept_flags, flag_for


def _arguments(hyperdrive_config, arguments):
    """v1's rules for the trial's arguments: the step's list (an estimator's run_config has none), or the
    ScriptRunConfig's own."""
    using_script_run_config = hyperdrive_config.run_config is not None
    if not using_script_run_config:
        params = hyperdrive_config.estimator._params
        if params.get("script_params"):
            raise ValueError("arguments in Estimator run_config should not be provided. Please use arguments in the "
                             "step")
        if params.get("inputs"):
            raise ValueError("data_references in Estimator run_config should not be provided.Please use inputs in "
                             "the step")
        if arguments is None:
            raise ValueError("estimator_entry_script_arguments is a required parameter if using Estimator.If the "
                             "Estimators entry script does not accept commandline arguments, set the parameter value "
                             "to empty list")
    if arguments is not None and not isinstance(arguments, list):
        raise ValueError("estimator_entry_script_arguments expects arguments as a list.")
    if using_script_run_config:
        own = hyperdrive_config.run_config.arguments
        if arguments is not None and own:
            raise ValueError("Only one of estimator_entry_script_arguments and ScriptRunConfig.arguments should be "
                             "set.")
        if own:
            arguments = [own] if isinstance(own, str) else list(own)
    return list(arguments or [])


class HyperDriveStep(PipelineStep):
    """v1: run ``hyperdrive_config``'s trials as one step; ``metrics_output`` receives the trials' metrics."""

    def __init__(self, name, hyperdrive_config, estimator_entry_script_arguments=None, inputs=None, outputs=None,
                 metrics_output=None, allow_reuse=True, version=None):
        if name is None:
            raise ValueError("name is required")
        if not isinstance(name, str):
            raise ValueError("name must be a string")
        if hyperdrive_config is None:
            raise ValueError("hyperdrive_config is required")
        if not isinstance(hyperdrive_config, HyperDriveConfig):
            raise ValueError(f"Unexpected hyperdrive_config type: {type(hyperdrive_config)}; pass a "
                             "HyperDriveConfig.")
        if not isinstance(allow_reuse, bool):
            raise ValueError(f"allow_reuse={allow_reuse!r}: pass True (reuse unchanged results, v1's default) or "
                             "False.")
        arguments = _arguments(hyperdrive_config, estimator_entry_script_arguments)
        outputs = list(outputs or [])
        if metrics_output is not None:
            if not isinstance(metrics_output, (PipelineData, DataReference, OutputPortBinding)):
                raise ValueError(f"Unexpected metrics_output type: {type(metrics_output)}; pass a PipelineData.")
            if isinstance(metrics_output, DataReference):  # v1 made the same binding of a DataReference
                metrics_output = OutputPortBinding(name=metrics_output.data_reference_name,
                                                   datastore=metrics_output.datastore, bind_mode="mount",
                                                   path_on_compute=metrics_output.path_on_compute,
                                                   overwrite=metrics_output.overwrite)
            metrics_output._training_output = TrainingOutput("Metrics")
            outputs.append(metrics_output)
        self.hyperdrive_config, self.metrics_output = hyperdrive_config, metrics_output
        self._allow_reuse, self._version = allow_reuse, version
        super().__init__(name, inputs, outputs, arguments)

    def _to_step_spec(self, context) -> StepSpec:
        from ._script_step import _extra, target_name

        cfg = self.hyperdrive_config
        trial = cfg.estimator
        if cfg.run_config is not None:  # its arguments are the step's (wired below)
            trial = copy.copy(trial)
            trial.arguments = None
        base = trial.to_job_spec()
        io = step_io(context, self._arguments, self._inputs, self._outputs)
        training = {output_port_name(o): o._training_output for o in self._outputs
                    if getattr(o, "_training_output", None) is not None}
        space = cfg._sampling.parameter_space
        from acpt_estimator.hyperdrive.sweep import input_name_for

        tokens = list(_without_swept_flags(io.tokens, {name.lstrip("-") for name in space}))
        for name in space:
            tokens += [Literal(flag_for(name)), SearchRef(input_name_for(name))]
        target = target_name(base.compute.target)
        target = context.default_compute if target in (None, "local") else target
        job = attrs.evolve(base, arguments=tuple(tokens), inputs=tuple(io.inputs) + _extra(base.inputs, io.inputs),
                           outputs=tuple(o for o in io.outputs if o.name not in training), display_name=self.name,
                           compute=ComputeSpec(target=target, vm_size=base.compute.vm_size,
                                               vm_priority=base.compute.vm_priority))
        from acpt_estimator.pipelines.kinds.sweep_config import policy_properties

        settings = SweepSettings(
            sampling=cfg._sampling.SAMPLING_NAME, parameter_space=space,
            sampling_properties=cfg._sampling.properties, primary_metric_name=cfg._primary_metric_name,
            primary_metric_goal=cfg.primary_metric_config["goal"], max_total_runs=cfg._max_total_runs,
            max_concurrent_runs=cfg._max_concurrent_runs, max_duration_minutes=cfg._max_duration_minutes,
            policy=cfg._policy.POLICY_NAME, policy_properties=policy_properties(cfg._policy),
            training_outputs=tuple(TrainingOutputSpec(o, training[o.name].type, training[o.name].model_file)
                                   for o in io.outputs if o.name in training))
        return StepSpec(name=context.node_name, kind="sweep", job=job, display_name=self.name, links=io.links,
                        produces=io.produces, allow_reuse=self._allow_reuse, sweep=settings,
                        parameters=io.parameters)


class HyperDriveStepRun(HyperDriveRun):
    """A HyperDriveStep's run: ``HyperDriveRun`` (trials, best run, metrics) plus the step run's outputs."""

    def __init__(self, step_run):
        handle = getattr(step_run, "_handle", None)
        if getattr(handle, "run_kind", None) != "hyperdrive":
            step_type = getattr(handle, "type", type(step_run).__name__)
            raise ValueError(f"Step run with wrong type has been provided. step_type: {step_type}; pass the step "
                             "run of a HyperDriveStep (pipeline_run.find_step_run(name)[0]).")
        self._handle, self._experiment, self._step_run = handle, step_run.experiment, step_run

    @property
    def pipeline_run_id(self):
        return self._step_run.pipeline_run_id

    def get_output_data(self, name):
        return self._step_run.get_output_data(name)

    def get_output(self, name):
        return self._step_run.get_output(name)

    def get_outputs(self):
        return self._step_run.get_outputs()


__all__ = ["DataReference", "HyperDriveRun", "HyperDriveStep", "HyperDriveStepRun", "OutputPortBinding", "ParamDef",
           "PipelineData", "PipelineStep", "TrainingOutput"]
