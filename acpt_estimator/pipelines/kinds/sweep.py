"""Step kind "sweep" (v1 ``HyperDriveStep``): locally the HyperDrive engine runs the trials (``sweep_local``); in v2
a sweep node over the trial command, whose outputs are the best trial's, then a command node writing its
TrainingOutputs (``sweep_v2_outputs``)."""

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
    from ...backends.azureml.pipeline_translate import CONTROL_OUTPUT
    from ...backends.azureml.translate import to_command
    from ...hyperdrive.sweep import sweep_of, trial_defaults
    from .command import v2_job_spec
    from .sweep_config import StepSweepConfig

    job, literals = v2_job_spec(step, context.values)
    config = StepSweepConfig(step.sweep, job)
    trial = to_command(job, context_root=context.context_root, validate=False,
                       literal_inputs={**literals, **trial_defaults(config)}, is_deterministic=step.allow_reuse)
    node = sweep_of(trial, config)
    node.name, node.display_name = step.name, step.display_name
    if step.sweep.training_outputs:  # written by a node after the sweep (sweep_v2_outputs)
        from .sweep_v2_outputs import follower_node

        context.add_follower(follower_node(step, context, CONTROL_OUTPUT))
    return node


def v2_producers(step) -> dict:
    """The step's TrainingOutputs are written by the node after its sweep node."""
    from .sweep_v2_outputs import v2_producers as producers

    return producers(step)
