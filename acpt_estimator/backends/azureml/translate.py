"""JobSpec -> ``azure.ai.ml`` Command (validated by the SDK itself); imports azure-ai-ml lazily."""

from __future__ import annotations

import logging
import os

import yaml

from ...exceptions import TrainingException, UserErrorException
from ...datastore_paths import v2_output_path
from ...job_runtime import INPUT_NAME, RUNTIME_DIR, ships_with_cloud_job
from ...job_runtime.acpt_datasets import DEFINITION_VAR
from ...spec import EnvironmentSpec, JobSpec
from . import sdk
from .build_context import write_build_context
from .command_line import render_command

logger = logging.getLogger(__name__)

_INPUT_MODES = {"mount": "ro_mount", "download": "download", "direct": "direct"}
_OUTPUT_MODES = {"upload": "upload", "mount": "rw_mount"}


def _azure_ml():
    try:
        import azure.ai.ml as ml
    except ImportError:
        raise UserErrorException(
            "azure-ai-ml is not installed; cloud jobs need it. Install it with: pip install 'acpt-estimator[azure]'"
        ) from None
    # Noise for our users (v2 registers inline environments anonymously, keyed by content, so names are unused).
    sdk.quiet_sdk_loggers()
    return ml


def environment_for(env: EnvironmentSpec, context_root: str | None = None):
    """A curated/registered reference string, or an anonymous ``Environment`` entity (image+conda or a build).

    Inline environments carry no name: v2 registers them anonymously, keyed by their content, so equal inputs reuse
    one image and no named asset (whose name could not contain the dots of ``acpt-pytorch-2.8``) is created.
    """
    if env.kind == "curated":
        suffix = f":{env.version}" if env.version else f"@{env.label or 'latest'}"
        return f"azureml:{env.name}{suffix}"
    if env.kind == "registered":
        # 'azureml:name@latest' hits an SDK 1.35 lookup bug; 'name@latest' resolves correctly.
        return f"azureml:{env.name}:{env.version}" if env.version else f"{env.name}@{env.label or 'latest'}"
    return environment_entity(env, context_root)


def environment_entity(env: EnvironmentSpec, context_root: str | None = None, *, name=None, version=None,
                       description=None):
    """The v2 ``Environment`` of an image or build spec: anonymous unless ``name`` is given (``env.register``)."""
    from azure.ai.ml.entities import BuildContext, Environment

    common = dict(name=name, version=version, description=description or env.description or None)
    if env.kind == "image":
        conda = yaml.safe_load(env.conda_file) if env.conda_file else None
        return Environment(image=env.image, conda_file=conda, **common)
    if env.kind == "build":
        path, dockerfile = write_build_context(env, context_root)
        return Environment(build=BuildContext(path=path, dockerfile_path=dockerfile), **common)
    raise TrainingException(f"Environment kind {env.kind!r} has no v2 environment entity (a curated or registered "
                            "environment is referenced by name).")


def _inputs(spec: JobSpec) -> dict:
    from azure.ai.ml import Input

    inputs = {item.name: Input(type=item.uri_type, path=item.uri, mode=_INPUT_MODES[item.mode]) for item in spec.inputs}
    if ships_with_cloud_job(spec):
        if INPUT_NAME in inputs:
            raise UserErrorException(f"The input name {INPUT_NAME!r} is reserved for acpt-estimator's job runtime; "
                                     "rename that input.")
        # A local folder input: v2 uploads it at submit (once; later jobs reuse it by content hash).
        # render_command puts it first on PYTHONPATH: `import horovod` and `from azureml.core.run import Run`
        # then work on images without Horovod or azureml-core.
        inputs[INPUT_NAME] = Input(type="uri_folder", path=RUNTIME_DIR, mode="download")
    return inputs


def _outputs(spec: JobSpec) -> dict:
    """v1 outputs as v2 outputs: {run-id}/{output-name} become v2 path expressions; a registration, the
    output's asset name (v2 registers it when the job completes)."""
    import json

    from azure.ai.ml import Output

    outputs = {}
    for item in spec.outputs:
        registration = json.loads(item.registration or "null") or {}
        if registration.get("type") == "tabular":
            raise UserErrorException(
                f"Output {item.reference_name!r}: registering an output as a tabular dataset on completion has no v2 "
                "job equivalent. Register it after the job: Dataset.Tabular.from_delimited_files((ds, path))"
                ".register(ws, name), or drop read_delimited_files()/read_parquet_files() to register the files.")
        outputs[item.name] = Output(type="uri_folder", path=v2_output_path(item.uri),
                                    mode=_OUTPUT_MODES[item.mode], name=registration.get("name"),
                                    description=registration.get("description"))
    return outputs


def _distribution(spec: JobSpec):
    from azure.ai.ml import MpiDistribution, PyTorchDistribution

    d = spec.distribution
    if d.kind == "mpi":
        return MpiDistribution(process_count_per_instance=d.process_count_per_node)
    if d.kind == "pytorch":
        return PyTorchDistribution(process_count_per_instance=d.process_count_per_node)
    return None


def _compute(spec: JobSpec) -> dict:
    c = spec.compute
    args = {}
    if c.is_local:
        logger.warning("compute_target='local' has no v2 equivalent (v2 local jobs need Docker); the v2 job runs on "
                       "serverless compute. Set a cluster name with compute_target='<cluster>' to choose one.")
    elif c.target:
        args["compute"] = c.target
    if c.vm_size:
        args["instance_type"] = c.vm_size
    if c.vm_priority == "lowpriority":
        args["job_tier"] = "spot"
    return args


def to_command(spec: JobSpec, *, context_root: str | None = None, validate: bool = True, literal_inputs=None,
               is_deterministic: bool = True):
    """Build the v2 ``Command`` for a JobSpec and run both of the SDK's own validations on it.

    ``literal_inputs`` (name -> default) declares the inputs that HyperDrive's SearchRef tokens (and pipeline
    parameters) reference; ``is_deterministic=False`` stops v2 from reusing a pipeline node's earlier result.
    """
    ml = _azure_ml()
    if spec.distribution.kind not in ("none", "mpi", "pytorch"):
        raise TrainingException(f"Distribution {spec.distribution.kind!r} cannot be translated to a v2 job.")
    variables = {"AZUREML_OUTPUT_DIRECTORY": "./outputs"}
    # The job rebuilds dataset inputs (run.input_datasets, Dataset.get_by_id) from their definitions.
    variables.update({DEFINITION_VAR + item.reference_name: item.definition for item in spec.inputs if item.definition})
    variables.update(spec.environment_variables)
    node = ml.command(
        code=spec.source_directory,
        command=render_command(spec),
        inputs={**_inputs(spec), **dict(literal_inputs or {})} or None,
        outputs=_outputs(spec) or None,
        environment=environment_for(spec.environment, context_root),
        environment_variables=variables,
        distribution=_distribution(spec),
        instance_count=spec.distribution.node_count,
        shm_size=spec.shm_size,
        timeout=spec.max_run_duration_seconds,
        experiment_name=spec.experiment_name,
        display_name=spec.display_name,
        tags=dict(spec.tags) or None,
        is_deterministic=is_deterministic,
        **_compute(spec),
    )
    if validate:
        validate_command(node)
    return node


def validate_command(node) -> None:
    """The node check and the job check catch different mistakes (undeclared ${{inputs.x}} only in the latter)."""
    errors = sdk.node_errors(node)
    if errors:
        raise TrainingException(f"The translated v2 job is invalid: {errors[0]}")
    try:
        sdk.check_job(sdk.to_job(node))
    except Exception as err:  # the SDK raises its own ValidationException subclasses
        raise TrainingException(f"The translated v2 job is invalid: {err}") from None


def to_v2_job(config, *, experiment_name=None, tags=None, context_root=None, **overrides):
    """The standalone v2 ``CommandJob`` (or ``SweepJob``) for an estimator, ScriptRunConfig or HyperDriveConfig."""
    if hasattr(config, "_to_v2_job"):
        return config._to_v2_job(experiment_name=experiment_name, tags=tags, context_root=context_root)
    spec = config.to_job_spec(experiment_name=experiment_name, tags=tags, **overrides)
    return sdk.to_job(to_command(spec, context_root=context_root))


def job_to_yaml(job) -> str:
    """YAML accepted by ``az ml job create --file`` and ``azure.ai.ml.load_job``."""
    import json

    data = json.loads(json.dumps(sdk.job_dict(job)))
    _local_folder_inputs(job, data)
    for name, node in (getattr(job, "jobs", None) or {}).items():  # a pipeline's nodes
        _local_folder_inputs(node, (data.get("jobs") or {}).get(name) or {})
    return yaml.safe_dump(data, sort_keys=False)


def _local_folder_inputs(job, data: dict) -> None:
    # azure-ai-ml 1.35 dumps a local folder input as 'azureml:/abs/path', which load_job then reads as an asset
    # id; write the folder itself (the job-runtime input is one).
    for name, item in (getattr(job, "inputs", None) or {}).items():
        try:
            path = getattr(item, "path", None)
        except Exception:  # noqa: BLE001 - a pipeline's literal input has no path (the SDK raises)
            continue
        dumped = (data.get("inputs") or {}).get(name)
        if isinstance(path, str) and isinstance(dumped, dict) and dumped.get("path") == f"azureml:{path}" \
                and os.path.exists(path):
            dumped["path"] = path
