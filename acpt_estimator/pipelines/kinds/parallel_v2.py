"""A "parallel" step as a v2 parallel node (``azure.ai.ml.parallel.parallel_run_function``), validated by the SDK.

v2's parallel runtime keeps v1's contract (init()/run(mini_batch), ``azureml_user.parallel_run.EntryScript``,
append_row, error thresholds); the node's code is the step's snapshot plus acpt-estimator's adapter
(``acpt_parallel/v2_entry.py``), which runs the v1 entry script unchanged: it reads tabular mini-batches with the
v1 dataset definition and passes ``mini_batch_context`` for partitioned inputs.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import shlex
import shutil
import tempfile

from ...exceptions import UserErrorException
from ...job_runtime import RUNTIME_DIR
from ...job_runtime.acpt_datasets import DEFINITION_VAR
from ...spec import InputRef, Literal, OutputRef
from ..spec import ParamRef
from .parallel_settings import settings_values

logger = logging.getLogger(__name__)
ADAPTER = "acpt_parallel/v2_entry.py"
_RUNTIME_FILES = ("acpt_datasets.py", "acpt_parallel/__init__.py", "acpt_parallel/worker.py", ADAPTER)
_CODE_ROOT_VAR = "ACPT_ESTIMATOR_PARALLEL_CODE_DIR"


def stage_code(source_directory: str, root: str | None = None) -> str:
    """The node's code folder: the step's snapshot plus the adapter, under ``root`` keyed by content (so equal
    inputs give the same folder and v2 uploads it once)."""
    from ...snapshot import copy_snapshot, snapshot_files

    files = snapshot_files(source_directory)
    clash = [f for f in files if f in _RUNTIME_FILES or f.split("/")[0] == "acpt_parallel"]
    if clash:
        raise UserErrorException(f"source_directory {source_directory!r} has {clash}, which acpt-estimator's parallel "
                                 "adapter ships in the job's code; rename them.")
    digest = hashlib.sha256()
    for rel in files + list(_RUNTIME_FILES):
        base = RUNTIME_DIR if rel in _RUNTIME_FILES else source_directory
        digest.update(rel.encode() + b"\0")
        with open(os.path.join(base, rel), "rb") as handle:
            digest.update(hashlib.sha256(handle.read()).digest())
    root = root or os.environ.get(_CODE_ROOT_VAR) or os.path.join(tempfile.gettempdir(), "acpt-estimator-parallel")
    folder = os.path.join(root, f"code-{digest.hexdigest()[:16]}")
    if not os.path.isdir(folder):
        scratch = tempfile.mkdtemp(prefix=".staging-", dir=os.makedirs(root, exist_ok=True) or root)
        copy_snapshot(source_directory, scratch, files)
        for rel in _RUNTIME_FILES:
            os.makedirs(os.path.dirname(os.path.join(scratch, rel)), exist_ok=True)
            shutil.copyfile(os.path.join(RUNTIME_DIR, rel), os.path.join(scratch, rel))
        try:
            os.rename(scratch, folder)
        except OSError:  # another process staged the same content first
            shutil.rmtree(scratch, ignore_errors=True)
    return folder


def _argument(token) -> str:
    if isinstance(token, InputRef):
        return f"${{{{inputs.{token.name}}}}}"
    if isinstance(token, OutputRef):
        return f"${{{{outputs.{token.name}}}}}"
    if isinstance(token, ParamRef):
        return f"${{{{inputs.{token.name}}}}}"
    if isinstance(token, Literal):
        return shlex.quote(token.value)
    raise UserErrorException(f"ParallelRunStep argument {token!r} has no v2 form.")


def to_parallel_node(step, context=None, *, code_root: str | None = None, validate: bool = True):
    """The v2 ``Parallel`` node of a parallel StepSpec (``context``: the pipeline translation's, unused here)."""
    from azure.ai.ml import Input, Output
    from azure.ai.ml.parallel import RunFunction, parallel_run_function

    from ...backends.azureml.translate import _INPUT_MODES, _OUTPUT_MODES, environment_for, validate_command

    job, settings = step.job, step.parallel
    found = settings_values(step)
    # what v2 cannot read from a pipeline input is fixed to the value this pipeline job is created with
    given = settings_values(step, getattr(context, "values", None))
    found.update(node_count=given["node_count"], partition_keys=given["partition_keys"])
    if len(settings.input_names) != 1:
        raise UserErrorException(f"ParallelRunStep {step.display_name!r}: a v2 parallel job splits one input "
                                 f"(input_data); this step has {list(settings.input_names)}. Pass one dataset in "
                                 "inputs=[...] (a dataset over all the files) and the others as side_inputs.")
    name = settings.input_names[0]
    primary = job.input_named(name)
    definition = json.loads(settings.options.get(f"definition:{name}") or primary.definition or "null") or {}
    tabular = definition.get("type") == "tabular"
    keys = list(found["partition_keys"] or [])
    # v2 counts files for a uri_folder input: a tabular mini-batch is one file (v1 never crossed files either);
    # a partitioned dataset gives one mini-batch per file (partition_by writes one file per partition).
    size = "1" if tabular or keys else str(found["mini_batch_size"] or 10)
    if tabular and found["mini_batch_size"]:
        logger.warning("ParallelRunStep %r: mini_batch_size=%s (bytes) becomes one file per mini-batch in v2 (a "
                       "uri_folder input is split by files).", step.display_name, found["mini_batch_size"])
    program = ["--acpt_entry_script", shlex.quote(job.entry_script), "--acpt_input_name", shlex.quote(
        primary.reference_name), "--acpt_input_path", f"${{{{inputs.{name}}}}}"]
    if keys:
        program += ["--acpt_partition_keys", shlex.quote(json.dumps(keys))]
    if settings.allowed_failed_percent is not None:
        program += ["--allowed_failed_percent", str(settings.allowed_failed_percent)]
    if settings.output_action == "append_row" and settings.append_row_file_name != "parallel_run_step.txt":
        program += ["--append_row_file_name", shlex.quote(settings.append_row_file_name)]
    program += [_argument(t) for t in job.arguments]
    # an input another step writes: the pipeline translation has bound its uri to ${{parent.jobs...}}; unbound
    # (the step on its own) it has no path yet
    inputs = {i.name: Input(type=i.uri_type, mode=_INPUT_MODES[i.mode]) if i.uri.startswith("step://") else
              Input(type=i.uri_type, path=i.uri, mode=_INPUT_MODES[i.mode]) for i in job.inputs}
    # literal pipeline parameters the arguments reference (${{inputs.<name>}}), with their defaults
    inputs.update({p.name: p.default for p in step.parameters if isinstance(p.default, (str, int, float, bool))})
    outputs = {o.name: Output(type="uri_folder", mode=_OUTPUT_MODES[o.mode]) for o in job.outputs}
    variables = {DEFINITION_VAR + i.reference_name: i.definition for i in job.inputs if i.definition}
    if settings.options.get(f"definition:{name}"):
        variables[DEFINITION_VAR + primary.reference_name] = settings.options[f"definition:{name}"]
    variables.update(job.environment_variables)
    append_row = settings.output_action == "append_row" and settings.output_name
    node = parallel_run_function(
        name=step.name, display_name=step.display_name or step.name, compute=job.compute.target,
        description=settings.options.get("description"),
        inputs=inputs, outputs=outputs or None, input_data=f"${{{{inputs.{name}}}}}",
        instance_count=int(found["node_count"]), max_concurrency_per_instance=int(found["process_count_per_node"]),
        mini_batch_size=size, partition_keys=None, error_threshold=settings.error_threshold,
        mini_batch_error_threshold=-1 if settings.allowed_failed_count is None else settings.allowed_failed_count,
        logging_level=str(found["logging_level"]).upper(),
        retry_settings={"max_retries": int(found["run_max_try"]), "timeout": int(found["run_invocation_timeout"])},
        environment_variables=variables, is_deterministic=step.allow_reuse,
        task=RunFunction(code=stage_code(job.source_directory, code_root), entry_script=ADAPTER,
                         program_arguments=" ".join(program),
                         append_row_to=f"${{{{outputs.{settings.output_name}}}}}" if append_row else None,
                         environment=environment_for(job.environment)))
    env = job.environment
    if env.kind == "image" and env.conda_file is not None and "azureml-core" not in env.conda_file:
        # v1 warned the same at ParallelRunStep(...): the parallel runtime on the node imports azureml-core
        logger.warning("ParallelRunStep %r: the environment has no azureml-core pip package, which the Azure ML "
                       "parallel runtime uses on the node; add it (CondaDependencies.add_pip_package('azureml-core')).",
                       step.display_name)
    if getattr(context, "pipeline_job", None) is not None:
        _bind_parameters(node, step, tabular or bool(keys))
    if validate and not step.links:  # a linked node is validated inside its pipeline job
        validate_command(node)
    return node


# ParallelRunConfig fields v2 lets a pipeline input set on the node (set after building: the component wants values)
_BINDABLE = {"mini_batch_size": lambda node, ref: setattr(node, "mini_batch_size", ref),
             "process_count_per_node": lambda node, ref: setattr(node, "max_concurrency_per_instance", ref),
             "logging_level": lambda node, ref: setattr(node, "logging_level", ref),
             "run_invocation_timeout": lambda node, ref: setattr(node.retry_settings, "timeout", ref),
             "run_max_try": lambda node, ref: setattr(node.retry_settings, "max_retries", ref)}


def _bind_parameters(node, step, files_per_batch_fixed: bool) -> None:
    """PipelineParameter-valued fields read the pipeline's input, so a submit with new values changes them."""
    for key, name in step.parallel.options.items():
        if not key.startswith("parameter:"):
            continue
        field = key.split(":", 1)[1]
        if field in _BINDABLE and not (field == "mini_batch_size" and files_per_batch_fixed):
            _BINDABLE[field](node, f"${{{{parent.inputs.{name}}}}}")
        else:
            logger.warning("ParallelRunStep %r: %s=PipelineParameter(%r) is written into the v2 node with the value "
                           "the pipeline job is created with (v2 cannot set it from a pipeline input%s); a later "
                           "change of the pipeline input does not change it.", step.display_name, field, name,
                           "; tabular and partitioned inputs go one file per mini-batch"
                           if field == "mini_batch_size" else "")
