"""A HyperDriveStep's TrainingOutputs in v2: a command node after the sweep node writes them (a v2 sweep node writes
no metrics file and copies no model file), running ``sweep_outputs/write_training_outputs.py`` in the step's
environment; it finds the trials through the job's MLflow run."""

from __future__ import annotations


def follower_name(step) -> str:
    """The node that writes ``step``'s TrainingOutputs (absent from the spec: a v1 pipeline has no such step)."""
    return f"{step.name}_training_outputs"


def is_file(item) -> bool:
    """v1 writes the metrics JSON and a ``model_file`` as one file at the output's path (its outputs/ as a folder)."""
    return item.type == "Metrics" or bool(item.model_file)


def v2_producers(step) -> dict:
    """Output name -> (the node that writes it, its v2 type), for outputs the step's own node does not write."""
    if step.sweep is None:
        return {}
    return {t.output.name: (follower_name(step), "uri_file" if is_file(t) else "uri_folder")
            for t in step.sweep.training_outputs}


def follower_node(step, context, control_output: str):
    """The command node writing ``step``'s TrainingOutputs; it takes the sweep node's ``control_output`` as an input
    (v2 orders nodes only by data), so it starts once every trial has ended."""
    import attrs

    from ...backends.azureml.translate import to_command
    from ...job_runtime import INPUT_NAME, RUNTIME_DIR, ships_with_cloud_job
    from ...spec import DataInput, InputRef, JobSpec, Literal, OutputRef
    from ..sweep_outputs import CODE_DIR, SCRIPT

    if follower_name(step) in context.step_names:
        from ...exceptions import UserErrorException

        raise UserErrorException(
            f"HyperDriveStep {step.display_name!r}: its TrainingOutputs are written on Azure ML by a node named "
            f"{follower_name(step)!r}, which is also the name of another step of the pipeline; rename that step.")
    settings = step.sweep
    names = [step.name] + ([step.display_name] if step.display_name and step.display_name != step.name else [])
    args = [token for name in names for token in (Literal("--sweep-node"), Literal(name, expand=False))]
    args += [Literal("--primary-metric"), Literal(settings.primary_metric_name, expand=False),
             Literal("--goal"), Literal(settings.primary_metric_goal, expand=False)]
    for item in settings.training_outputs:
        if item.type == "Metrics":
            args += [Literal("--metrics"), OutputRef(item.output.name)]
        elif item.model_file:
            args += [Literal("--model-file"), OutputRef(item.output.name), Literal(item.model_file, expand=False)]
        else:
            args += [Literal("--model-folder"), OutputRef(item.output.name)]
    after = f"acpt_after_{step.name}"
    args += [Literal("--job-runtime"), InputRef(INPUT_NAME)]  # the script reads v1's shapes with its _v1_records
    inputs = (DataInput(name=after, reference_name=after, kind="step_output", mode="mount", uri_type="uri_folder",
                        uri="${{parent.jobs.%s.outputs.%s}}" % (step.name, control_output)),)
    job = JobSpec(
        source_directory=CODE_DIR, entry_script=SCRIPT, arguments=tuple(args), inputs=inputs,
        outputs=tuple(t.output for t in settings.training_outputs), environment=step.job.environment,
        compute=step.job.compute, experiment_name=step.job.experiment_name,
        display_name=f"{step.display_name or step.name} training outputs")
    if not ships_with_cloud_job(job):  # else to_command adds the job runtime folder as this same input
        job = attrs.evolve(job, inputs=inputs + (DataInput(
            name=INPUT_NAME, reference_name=INPUT_NAME, kind="local", mode="download", uri_type="uri_folder",
            uri=RUNTIME_DIR),))
    node = to_command(job, context_root=context.context_root, validate=False, is_deterministic=step.allow_reuse)
    for item in settings.training_outputs:  # the node's output and its component's declaration
        if is_file(item):
            node.outputs[item.output.name].type = "uri_file"
            node.component.outputs[item.output.name].type = "uri_file"
    node.name = follower_name(step)
    return node
