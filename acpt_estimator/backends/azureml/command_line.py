"""JobSpec -> the v2 job's ``command`` string: shell-safe literals, ``${{inputs.*}}`` refs, v1-era variables."""

from __future__ import annotations

import re
import shlex

from ...arguments import VAR_REFERENCE
from ...job_runtime import INPUT_NAME, TRACKING_CHECK, checks_tracking, ships_with_cloud_job
from ...names import check
from ...spec import InputRef, JobSpec, Literal, OutputRef, SearchRef

# Variables v1 runtimes exported and old scripts still read; v2 provides their ingredients under new names.
V1_ERA_PREAMBLE = (
    'export AZ_BATCHAI_TASK_INDEX="${RANK:-${OMPI_COMM_WORLD_RANK:-0}}"',
    'export AZ_BATCHAI_MPI_MASTER_NODE="${AZ_BATCHAI_MPI_MASTER_NODE:-${MASTER_ADDR:-localhost}}"',
    'export AZ_BATCH_MASTER_NODE="${AZ_BATCH_MASTER_NODE:-${MASTER_ADDR:-localhost}:${MASTER_PORT:-6105}}"',
    'export AZ_BATCHAI_PYTORCH_INIT_METHOD="tcp://${MASTER_ADDR:-localhost}:${MASTER_PORT:-6105}"',
)
# The job-runtime folder (the ``horovod`` package: real Horovod if the image has one, else the layer) goes first.
JOB_RUNTIME_PATH = 'export PYTHONPATH="${{inputs.%s}}${PYTHONPATH:+:${PYTHONPATH}}"' % INPUT_NAME
# v1 jobs found ./outputs and ./logs in their working directory; scripts that write there without creating it
# would fail on v2, which creates neither.
WORKING_FOLDERS = "mkdir -p 'outputs' 'logs'"
# The v2 service substitutes ${{...}} (and $[[...]] optional blocks) anywhere in the command text.
_TEMPLATE_OPENERS = re.compile(r"\$(?=\{\{|\[\[)")


def quote_plain(text: str) -> str:
    """Single-quote ``text`` for bash, splitting any ``${{``/``$[[`` so the service never sees a template."""
    if not text:
        return "''"
    pieces = _TEMPLATE_OPENERS.split(text)
    # Each split point was a '$' that opened a template: emit it as its own quoted piece.
    return "'$'".join(shlex.quote(piece) if piece else "" for piece in pieces) or "''"


def quote_literal(text: str) -> str:
    """A literal argv token: plain text quoted, $VAR/${VAR} left for the job's shell to expand (v1 semantics)."""
    parts, last = [], 0
    for match in VAR_REFERENCE.finditer(text):
        if match.start() > last:
            parts.append(quote_plain(text[last:match.start()]))
        parts.append('"${%s}"' % (match["braced"] or match["bare"]))
        last = match.end()
    if last < len(text) or not parts:
        parts.append(quote_plain(text[last:]))
    return "".join(parts)


def render_token(token) -> str:
    if isinstance(token, Literal):
        return quote_literal(token.value) if token.expand else quote_plain(token.value)
    if isinstance(token, InputRef):
        return "${{inputs.%s}}" % token.name
    if isinstance(token, OutputRef):
        return "${{outputs.%s}}" % token.name
    if isinstance(token, SearchRef):
        # A literal job input; .sweep() rewrites it to ${{search_space.<name>}} in the trial command. The service
        # pastes the sampled value in as text, so it sits in single quotes: 'leaky relu' stays one argument and
        # 'x;cmd' runs nothing (values holding a quote are refused by HyperDriveConfig, see check_search_values).
        return "'${{inputs.%s}}'" % token.name
    raise TypeError(f"unknown argument token {token!r}")


def render_argv(spec: JobSpec) -> str:
    """``python <entry> <args>`` (or the ScriptRunConfig ``command``) with every token rendered."""
    if spec.command is not None:
        return spec.command
    words = ["python", quote_plain(spec.entry_script)] + [render_token(t) for t in spec.arguments]
    return " ".join(words)


def render_command(spec: JobSpec) -> str:
    """The full command: ./outputs and ./logs, job-runtime path (and the tracking check of user-managed
    environments), v1-era and data-reference variables, the program."""
    runtime = [JOB_RUNTIME_PATH] if ships_with_cloud_job(spec) else []
    if runtime and checks_tracking(spec):
        runtime.append(f"python -m {TRACKING_CHECK} || exit 1")
    lines = [WORKING_FOLDERS] + runtime
    if spec.distribution.kind != "none" or _mentions_batchai(spec):
        lines.extend(V1_ERA_PREAMBLE)
    for item in spec.inputs + spec.outputs:
        # Names are checked when the data objects are made; a spec built any other way is checked here too.
        check("reference", item.reference_name, parameter="data_reference_name")
        check("identifier", item.name, parameter="input/output name")
    for item in spec.inputs:
        lines.append(f'export AZUREML_DATAREFERENCE_{item.reference_name}="${{{{inputs.{item.name}}}}}"')
    for item in spec.outputs:
        lines.append(f'export AZUREML_DATAREFERENCE_{item.reference_name}="${{{{outputs.{item.name}}}}}"')
    lines.append(render_argv(spec))
    return "\n".join(lines)


def _mentions_batchai(spec: JobSpec) -> bool:
    return any(isinstance(t, Literal) and "AZ_BATCH" in t.value for t in spec.arguments)
