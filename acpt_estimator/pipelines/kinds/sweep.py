"""Step kind "sweep" (v1 ``HyperDriveStep``): locally the HyperDrive engine runs the trials (``sweep_local``); in v2
a sweep node over the trial command, whose outputs are the best trial's."""

from __future__ import annotations


def to_local_job(step, context):
    """The trial job template: parameters and linked inputs resolved, swept values still SearchRefs."""
    from ..local import resolve_job

    return resolve_job(step, context.values, context.inputs_for(step))


def start_local(step, job, context):
    """Start the trials; ``context`` is the LocalPipelineRun (its experiment, run id and store)."""
    from .sweep_local import start

    return start(step, job, context.experiment, context.id, context.store_home)


def to_v2_node(step, context):
    """A v2 ``Sweep`` node (``command(...).sweep(...)``); ``context`` is a ``V2StepContext``."""
    from ...backends.azureml.translate import to_command
    from ...hyperdrive.sweep import sweep_of, trial_defaults
    from ...refusal import refuse
    from .command import v2_job_spec
    from .sweep_config import StepSweepConfig

    if step.sweep.training_outputs:
        kinds = sorted({f"TrainingOutput({t.type!r})" for t in step.sweep.training_outputs})
        refuse(f"HyperDriveStep {step.display_name!r} metrics_output / {', '.join(kinds)} on Azure ML",
               "a v2 sweep node's outputs are its best trial's own outputs; the service writes no metrics file and "
               "copies no model file into a pipeline output.",
               "let the trial script write its model into a PipelineData output of the step (the sweep node passes "
               "on the best trial's), and read the trials' metrics after the run with "
               "HyperDriveStepRun(pipeline_run.find_step_run(name)[0]).get_metrics(); run locally "
               "(ACPT_ESTIMATOR_TARGET=local) to keep metrics_output")
    job, literals = v2_job_spec(step, context.values)
    config = StepSweepConfig(step.sweep, job)
    trial = to_command(job, context_root=context.context_root, validate=False,
                       literal_inputs={**literals, **trial_defaults(config)}, is_deterministic=step.allow_reuse)
    node = sweep_of(trial, config)
    node.name, node.display_name = step.name, step.display_name
    return node
