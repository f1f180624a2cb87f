"""Steps of kind "parallel" (v1 ParallelRunStep): locally the ParallelRunStep driver as one job's command; in the
cloud a v2 parallel node (see ``parallel_v2``)."""

from __future__ import annotations

import shlex
import sys

import attrs

from ...spec import Distribution, InputRef, JobSpec, Literal, OutputRef
from ..spec import ParamRef
from .parallel_settings import settings_values

DRIVER_MODULE = "acpt_estimator.job_runtime.acpt_parallel.driver"


def _word(token, values: dict) -> str:
    """One shell word: literals quoted (no expansion), data as the job's $AZURE_ML_INPUT_/OUTPUT_ variables."""
    if isinstance(token, InputRef):
        return f'"$AZURE_ML_INPUT_{token.name}"'
    if isinstance(token, OutputRef):
        return f'"$AZURE_ML_OUTPUT_{token.name}"'
    if isinstance(token, ParamRef):
        return shlex.quote(str(values[token.name]))
    if isinstance(token, Literal):
        return shlex.quote(token.value)
    raise ValueError(f"ParallelRunStep argument {token!r} cannot run locally.")


def driver_command(step, job: JobSpec, values: dict | None = None, python: str | None = None) -> str:
    """The shell command that runs the driver over ``job``'s inputs (the v1 main arguments, then ``--`` and the
    step's own arguments)."""
    settings, found = step.parallel, settings_values(step, values)
    words = [shlex.quote(python or sys.executable), "-m", DRIVER_MODULE, "--entry_script",
             shlex.quote(job.entry_script)]
    for name in settings.input_names:
        item = job.input_named(name)
        words += ["--input", f'{shlex.quote(item.reference_name)}="$AZURE_ML_INPUT_{name}"']
        definition = settings.options.get(f"definition:{name}")
        if definition:
            words += ["--definition", shlex.quote(f"{item.reference_name}={definition}")]
    options = {"mini_batch_size": found["mini_batch_size"], "error_threshold": settings.error_threshold,
               "allowed_failed_count": settings.allowed_failed_count,
               "allowed_failed_percent": settings.allowed_failed_percent, "output_action": settings.output_action,
               "append_row_file_name": settings.append_row_file_name, "node_count": found["node_count"],
               "process_count_per_node": found["process_count_per_node"],
               "run_invocation_timeout": found["run_invocation_timeout"], "run_max_try": found["run_max_try"],
               "logging_level": found["logging_level"]}
    if found["partition_keys"]:
        import json

        options["partition_keys"] = json.dumps(found["partition_keys"])
    for key, value in options.items():
        if value is not None:
            words += [f"--{key}", shlex.quote(str(value))]
    if settings.output_name:
        words += ["--output", f'"$AZURE_ML_OUTPUT_{settings.output_name}"']
    words += ["--logs", "logs", "--"] + [_word(t, dict(values or {})) for t in job.arguments]
    return " ".join(words)


def local_job(step, job: JobSpec, values: dict | None = None) -> JobSpec:
    """``job`` (inputs resolved) as one local job: one driver process that starts node_count x
    process_count_per_node workers itself (so the launcher runs a single rank)."""
    return attrs.evolve(job, command=driver_command(step, job, values), arguments=(), distribution=Distribution())


def to_local_job(step, context) -> JobSpec:
    """The pipelines' local runner hook: ``context`` is the LocalPipelineRun (parameter values, producers'
    output folders)."""
    from ..local import resolve_job

    job = resolve_job(step, context.values, context.inputs_for(step))
    return local_job(step, job, context.values)


def to_v2_node(step, context):
    from .parallel_v2 import to_parallel_node

    return to_parallel_node(step, context)
