"""``CloudRun``: the cloud backend's run handle over a v2 job, through the real azure-ai-ml client and run history."""

from __future__ import annotations

import json
import os

from ...exceptions import ModelPathNotFoundException, UserErrorException
from ...names import check
from ...paths import contained
from ...hyperdrive.results import SweepHandle
from ...run_handle import RunHandle
from ...tracking import details as v1_details
from ...tracking import command_arguments, metrics_from_records, tags_match, user_tags
from ...refusal import refused
from . import run_files, run_metrics, stream
from .sweep_tags import PARAMETER_NAMES, parameter_names, trial_tag
from .client import azure_errors, ml_client, services
from . import details as service_details


class CloudRun(RunHandle):
    """A submitted v2 job, answering v1's ``ScriptRun`` calls (v1 wraps it in a ScriptRun)."""

    def __init__(self, experiment, run_id: str, job=None):
        self._experiment = experiment
        self._id = run_id
        self._job = job  # the azure.ai.ml job entity, refreshed by get_status()/get_tags()
        self._status = stream.v1_status(getattr(job, "status", None))

    # ---- plumbing -----------------------------------------------------------------------------------
    @property
    def _workspace(self):
        return self._experiment.workspace

    def _services(self):
        return services(self._workspace)

    def _refresh(self):
        with azure_errors(self._workspace, f"read run {self._id!r}"):
            self._job = ml_client(self._workspace).jobs.get(self._id)
        return self._job

    def _history_details(self) -> dict:
        svc = self._services()
        with azure_errors(self._workspace, f"read the details of run {self._id!r}"):
            return svc.get_json(svc.history(f"/runs/{self._id}/details"))

    def _v1_details(self, details: dict) -> dict:
        """v1's keys, in v1's shape; the run definition comes from the submitted v2 job."""
        details = dict(details)
        self._status = stream.v1_status(details.get("status"))
        details.update(status=self._status, runId=details.get("runId") or self._id)
        definition = self._run_definition(details.get("parentRunId"))
        details["runDefinition"] = service_details.merge_definition(definition, details.get("runDefinition"))
        details["submittedBy"] = service_details.submitted_by(details)
        return v1_details(details, details.pop("error", None))

    def _run_definition(self, parent_id=None) -> dict:
        """v1's runDefinition keys (script, arguments, nodeCount, mpi, ...) from the v2 job; a sweep trial's
        arguments are its sweep's trial command with the values the service recorded for the trial."""
        job = self._job or self._refresh()
        command, values = getattr(job, "command", None), _literal_inputs(job)
        if parent_id and (not command or "${{search_space." in command):
            with azure_errors(self._workspace, f"read the sweep {parent_id!r} of trial {self._id!r}"):
                sweep = ml_client(self._workspace).jobs.get(parent_id)
            command = command or getattr(getattr(sweep, "trial", None), "command", None)
            sampled = json.loads(trial_tag(sweep.tags or {}, self._id) or "{}")
            values = {**_literal_inputs(sweep), **values, **{str(k).lstrip("-"): v for k, v in sampled.items()}}
        script, arguments = command_arguments(command, values)
        distribution = getattr(job, "distribution", None)
        resources = getattr(job, "resources", None)
        environment = getattr(job, "environment", None)
        return {"script": script, "arguments": arguments, "command": command, "target": getattr(job, "compute", None),
                "nodeCount": getattr(resources, "instance_count", None) or 1,
                "mpi": {"processCountPerNode": getattr(distribution, "process_count_per_instance", None) or 1},
                "distribution": _distribution_dict(distribution),
                "environment": environment if isinstance(environment, str) else getattr(environment, "id", None),
                "environmentVariables": dict(getattr(job, "environment_variables", None) or {})}

    # ---- the v1 protocol ----------------------------------------------------------------------------
    @property
    def id(self) -> str:
        return self._id

    @property
    def display_name(self):
        return getattr(self._job, "display_name", None)

    def get_status(self) -> str:
        self._status = stream.v1_status(self._refresh().status)
        return self._status

    def wait_for_completion(self, show_output=False, wait_post_processing=False, raise_on_error=True) -> dict:
        return stream.wait_for_completion(self, show_output, raise_on_error)

    def get_details(self) -> dict:
        return self._v1_details(self._history_details())

    def get_details_with_logs(self) -> dict:
        details = self.get_details()
        details["logFiles"] = {name: self._services().get_bytes(url).decode("utf-8", "replace")
                               for name, url in details.get("logFiles", {}).items()}
        return details

    def get_metrics(self, name=None) -> dict:
        records, _ = run_metrics.read(self._workspace, self._id, name)
        return metrics_from_records(records, name, run_id=self._id)

    # ---- the driver's log_* calls (V1Logging) land in the job's MLflow run, in the in-job Run's form ----
    _writer = None

    def _write_record(self, kind, name, value, step=None, **_):
        if self._writer is None:
            self._writer = run_metrics.Writer(self._workspace, self._id)
        self._writer.write(kind, name, value, step=step)

    def get_file_names(self) -> list:
        return run_files.list_files(self._workspace, self._id)

    def download_file(self, name, output_file_path=None, _validate_checksum=False) -> None:
        names = self.get_file_names()
        if name not in names:
            raise UserErrorException(
                f"File with path {name} was not found,\navailable files include: {', '.join(names[:20])}"
                f"{' ...' if len(names) > 20 else ''}.")
        destination = output_file_path or os.path.basename(name)
        if os.path.isdir(destination):
            destination = os.path.join(destination, os.path.basename(name))
        run_files.download(self._workspace, self._id, name, destination)

    def download_files(self, prefix=None, output_directory=None, output_paths=None, batch_size=100,
                       append_prefix=True, timeout_seconds=None) -> None:
        names = [n for n in self.get_file_names() if prefix is None or n.startswith(prefix)]
        if output_paths is not None and len(output_paths) != len(names):
            raise UserErrorException(
                f"download_files(output_paths=...) has {len(output_paths)} paths for {len(names)} files "
                f"matching prefix={prefix!r}; pass one path per file or use output_directory=.")
        root = output_directory or os.getcwd()
        for index, name in enumerate(names):
            if output_paths is not None:
                destination = output_paths[index]
            else:
                relative = name if append_prefix or not prefix else name[len(prefix):].lstrip("/")
                destination = contained(root, relative or os.path.basename(name), parameter="run file name",
                                        what="output_directory", fix="Pass output_paths= to choose each path.")
            run_files.download(self._workspace, self._id, name, destination)

    def register_model(self, model_name, model_path=None, tags=None, properties=None, model_framework=None,
                       model_framework_version=None, description=None, datasets=None, sample_input_dataset=None,
                       sample_output_dataset=None, resource_configuration=None, **kwargs):
        """A v2 ``Model`` registered from the job's output (azureml://jobs/<run>/outputs/artifacts/paths/...); its
        v1 record."""
        from .assets import register_job_model
        from .model_records import model_record

        check("model", model_name, parameter="model_name")
        path = (model_path or model_name).strip("/")
        names = self.get_file_names()
        if path not in names and not any(n.startswith(path + "/") for n in names):
            raise ModelPathNotFoundException(
                f"Could not locate the provided model_path {path} in the set of files uploaded to the run: "
                f"{names}\n See https://aka.ms/run-logging for more details.")
        for ignored, value in (("datasets", datasets), ("sample_input_dataset", sample_input_dataset),
                               ("sample_output_dataset", sample_output_dataset),
                               ("resource_configuration", resource_configuration)):
            if value is not None:
                import logging

                logging.getLogger(__name__).warning(
                    "register_model(%s=...) has no v2 equivalent and is not recorded on the model.", ignored)
        entity = register_job_model(self._workspace, self._id, model_name, path, tags=tags, properties=properties,
                                    description=description, model_framework=model_framework,
                                    model_framework_version=model_framework_version)
        return {**model_record(entity), "run_id": self._id, "experiment_name": getattr(self.experiment, "name", None)}

    def cancel(self) -> None:
        with azure_errors(self._workspace, f"cancel run {self._id!r}"):
            ml_client(self._workspace).jobs.begin_cancel(self._id)
        self._status = "CancelRequested"

    def get_portal_url(self) -> str:
        url = getattr(self._job, "studio_url", None)
        if url:
            return url
        ws = self._workspace
        return (f"https://ml.azure.com/runs/{self._id}?wsid=/subscriptions/{ws.subscription_id}/resourcegroups/"
                f"{ws.resource_group}/workspaces/{ws.name}")

    # ---- tags ---------------------------------------------------------------------------------------
    @property
    def tags(self) -> dict:
        """Cached like v1; ``get_tags()`` fetches fresh values."""
        return user_tags(getattr(self._job, "tags", None))

    @property
    def properties(self) -> dict:
        return dict(getattr(self._job, "properties", None) or {})

    def get_tags(self) -> dict:
        return user_tags(self._refresh().tags)

    def tag(self, key, value=None) -> None:
        self.set_tags({key: "" if value is None else value})

    def set_tags(self, tags) -> None:
        """Merged into the job's tags through ``jobs.update`` (run history's PATCH, as the studio does)."""
        self._update(tags={str(k): str(v) for k, v in dict(tags).items()})

    def add_properties(self, properties) -> None:
        """v1 properties are add-only; v2 merges them the same way."""
        self._update(properties={str(k): str(v) for k, v in dict(properties).items()})

    def _update(self, **fields) -> None:
        with azure_errors(self._workspace, f"update run {self._id!r}"):
            self._job = ml_client(self._workspace).jobs.update(self._id, **fields)

    def remove_tags(self, tags) -> None:
        service_details.remove_tags(self._workspace, self._id, [tags] if isinstance(tags, str) else list(tags))

    def get_children(self, recursive=False, tags=None, properties=None, type=None, status=None,
                     _rehydrate_runs=True):
        with azure_errors(self._workspace, f"list the child runs of {self._id!r}"):
            children = list(ml_client(self._workspace).jobs.list(parent_job_name=self._id))
        runs = [run_for_job(self._experiment, child) for child in children]
        # the listed jobs' own status: no request per child
        return iter(filter_children(runs, recursive, tags, properties, type, status, status_of=lambda r: r._status))

    @property
    def description(self):
        return getattr(self._job or self._refresh(), "description", None)

    def _number(self):
        svc = self._services()
        with azure_errors(self._workspace, f"read run {self._id!r}"):
            return svc.get_json(svc.history(f"/runs/{self._id}")).get("runNumber")

    def _parent_id(self):
        return self._history_details().get("parentRunId")

    def get_environment(self):
        """The job's v2 environment (``azureml:<name>@latest``, ``azureml:<name>:<version>`` or an Environment)."""
        return getattr(self._job or self._refresh(), "environment", None)

    # ---- files the driver adds (run history's artifacts, as azureml-mlflow uploads them) -------------
    def upload_file(self, name, path_or_stream, datastore_name=None):
        from .run_uploads import upload

        upload(self._workspace, self._experiment.name, self._id, name, path_or_stream)

    def upload_folder(self, name, path, datastore_name=None):
        from .run_uploads import upload_folder

        upload_folder(self._workspace, self._experiment.name, self._id, name, path)

    def _store_image(self, artifact, path=None, plot=None):
        if path is not None:
            return self.upload_file(artifact, path)
        import io

        buffer = io.BytesIO()
        plot.savefig(buffer, format=artifact.rsplit(".", 1)[-1])
        buffer.seek(0)
        self.upload_file(artifact, buffer)
    _new_child = refused("Run.child_run (on a cloud run)", "v2 has no child runs created from the driver.",
                         "mlflow.start_run(nested=True) with azureml-mlflow installed, or a pipeline job")

    def is_terminal(self) -> bool:
        return self._status in stream.STOP_WAITING


class CloudHyperDriveRun(SweepHandle, CloudRun):
    """The sweep's parent run (v1 wraps it in a HyperDriveRun); trials are its children (run history), metrics come
    from run history per trial."""

    def __init__(self, experiment, run_id, job=None, config=None):
        super().__init__(experiment, run_id, job)
        self._config = config

    def _primary(self) -> tuple:
        """The primary metric and goal: the submitted HyperDriveConfig's, else the sweep job's own objective (a
        sweep reopened by id, from get_runs, or from yesterday)."""
        if self._config is not None:
            return super()._primary()
        objective = getattr(self._job or self._refresh(), "objective", None)
        if objective is None or not getattr(objective, "primary_metric", None):
            return super()._primary()
        return objective.primary_metric, str(objective.goal).lower() == "maximize"

    def _hyperparameters_of(self, child):
        """The sampled values as v1 returned them (a JSON string keyed by the v1 argument names). The service
        records them as tags of the sweep run, one per trial: ``_aml_system_<trial id>`` (older runs:
        ``<trial id>``), keyed by the v2 search-space names."""
        found = trial_tag(self._parent_tags or {}, child.id)
        if found is None:
            self._parent_tags = dict(getattr(self._refresh(), "tags", None) or {})
            found = trial_tag(self._parent_tags, child.id)
        if found is None:
            return None
        try:
            values = json.loads(found)
        except ValueError:
            return found  # not JSON: as the service stored it
        names = self._v1_names()
        return json.dumps({names.get(k, k): v for k, v in values.items()}) if isinstance(values, dict) else found

    def _v1_names(self) -> dict:
        if self._config is not None:
            return parameter_names(self._config)
        properties = getattr(self._job or self._refresh(), "properties", None) or {}
        try:
            return json.loads(properties.get(PARAMETER_NAMES) or "{}")
        except ValueError:
            return {}

    _parent_tags = None


def run_for_job(experiment, job):
    """A v2 job as v1 saw it: a sweep is a HyperDriveRun, anything else a ScriptRun."""
    kind = CloudHyperDriveRun if str(getattr(job, "type", "")).lower() == "sweep" else CloudRun
    return kind(experiment, job.name, job=job)


def _literal_inputs(job) -> dict:
    """The job's literal inputs (numbers, strings: script_params values) by name; data inputs are left out."""
    found = {}
    for name, value in (getattr(job, "inputs", None) or {}).items():
        if isinstance(value, (str, int, float, bool)):
            found[name] = value
        elif getattr(value, "type", None) in ("string", "integer", "number", "boolean"):
            found[name] = getattr(value, "default", None)
    return found


def _distribution_dict(distribution):
    if distribution is None:
        return None
    fields = {"type": getattr(distribution, "type", None)}
    for name in ("process_count_per_instance",):
        if getattr(distribution, name, None) is not None:
            fields[name] = getattr(distribution, name)
    return fields


def filter_children(runs, recursive, tags, properties, type, status, status_of=None) -> list:
    """v1's get_children filters over ``runs`` (with ``recursive``, their descendants after each), as the local
    store's runs are filtered."""
    found = []
    for run in runs:
        found.append(run)
        if recursive:
            found.extend(run.get_children(recursive=True))
    status_of = status_of or (lambda r: r.get_status())
    return [r for r in found if (status is None or status_of(r) == status) and tags_match(r.tags, tags)
            and tags_match(r.properties, properties) and (type is None or r.type == type)]
