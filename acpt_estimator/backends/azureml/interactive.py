"""Interactive cloud runs: ``experiment.start_logging()`` and ``run.child_run()`` as MLflow runs in the workspace.

Azure ML records MLflow runs in run history like jobs; this process logs to them (the same MLflow record form as
jobs, see ``job_runtime/_v1_records.py``) and ends them with ``complete()``/``fail()``/``cancel()``.
"""

from __future__ import annotations

import datetime
import time

from ...exceptions import ActivityFailedException, UserErrorException
from ...tracking import details as v1_details
from ...tracking import tags_match, user_tags
from ...refusal import refused
from ...run_handle import TERMINAL_STATUSES, ExperimentRef
from . import run_metrics
from .run import CloudRun, filter_children

_STATUS = {"RUNNING": "Running", "SCHEDULED": "Queued", "FINISHED": "Completed", "FAILED": "Failed",
           "KILLED": "Canceled"}
_PARENT_TAG = "mlflow.parentRunId"  # MLflow's own nesting tag (what mlflow.start_run(nested=True) sets)
PROPERTY_TAG = "acpt.v1.property/"  # v1 properties: MLflow runs have tags only


def start(experiment, parent_id=None, display_name=None):
    """A new Running MLflow run in the workspace's experiment (created if new)."""
    from mlflow.entities import RunTag
    from mlflow.exceptions import MlflowException

    store = run_metrics.mlflow_store(experiment.workspace)
    with run_metrics.mlflow_errors(experiment.name, "start an interactive run"):
        try:
            experiment_id = store.get_experiment_by_name(experiment.name).experiment_id
        except (MlflowException, AttributeError):  # absent: MLflow answers 404 (or None from some stores)
            experiment_id = store.create_experiment(experiment.name)
        tags = [RunTag(_PARENT_TAG, parent_id)] if parent_id else []
        if display_name:
            tags.append(RunTag("mlflow.runName", display_name))
        created = store.create_run(experiment_id, user_id=None, start_time=int(time.time() * 1000), tags=tags,
                                   run_name=display_name)
    return CloudInteractiveRun(experiment, created.info.run_id)


def find_interactive(workspace, run_id: str, experiment=None):
    """An MLflow-made run of the workspace by id (``Run.get`` when no job has that name)."""
    store = run_metrics.mlflow_store(workspace)
    with run_metrics.mlflow_errors(run_id, "find"):
        info = store.get_run(run_id).info
        name = experiment.name if experiment is not None else store.get_experiment(info.experiment_id).name
    return CloudInteractiveRun(experiment or ExperimentRef(workspace, name), run_id)


class CloudInteractiveRun(CloudRun):
    """An MLflow run of the workspace that this process logs to. Files, metrics and the driver's ``log*`` calls
    work as on a job's run (CloudRun); state, tags and children come from MLflow's REST API (no job behind it)."""

    _interactive = True

    def __init__(self, experiment, run_id: str):
        super().__init__(experiment, run_id)

    def _mlflow_run(self):
        store = run_metrics.mlflow_store(self._workspace)
        with run_metrics.mlflow_errors(self._id, "read"):
            return store.get_run(self._id)

    def _set_status(self, status: str) -> None:
        store = run_metrics.mlflow_store(self._workspace)
        with run_metrics.mlflow_errors(self._id, f"set the status {status}"):
            store.update_run_info(self._id, status, int(time.time() * 1000), None)

    # ---- identity and state -------------------------------------------------------------------------
    @property
    def type(self) -> str:
        return "azureml.interactive" if self._parent_id() is None else "run"

    @property
    def display_name(self) -> str:
        return self._mlflow_run().data.tags.get("mlflow.runName") or self._id

    def _parent_id(self):
        return self._mlflow_run().data.tags.get(_PARENT_TAG)

    def get_status(self) -> str:
        return _STATUS.get(str(self._mlflow_run().info.status), "Running")

    def get_details(self) -> dict:
        info = self._mlflow_run().info
        iso = lambda ms: None if not ms else datetime.datetime.fromtimestamp(
            ms / 1000, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
        return v1_details({"runId": self._id, "target": "local", "status": _STATUS.get(str(info.status), "Running"),
                           "startTimeUtc": iso(info.start_time), "endTimeUtc": iso(info.end_time),
                           "properties": self.properties, "parentRunId": self._parent_id()})

    def wait_for_completion(self, show_output=False, wait_post_processing=False, raise_on_error=True) -> dict:
        while self.get_status() not in TERMINAL_STATUSES:
            time.sleep(1)
        details = self.get_details()
        if raise_on_error and details["status"] == "Failed":
            raise ActivityFailedException(f"Activity Failed:\nrun {self._id} failed")
        return details

    def start(self) -> None:
        if self.get_status() in TERMINAL_STATUSES:
            raise UserErrorException(f"Run {self._id} has ended ({self.get_status()}); start a new one with "
                                     "experiment.start_logging().")

    def complete(self, _set_status=True) -> None:
        if _set_status:
            self._set_status("FINISHED")

    def fail(self, error_details=None, error_code=None, _set_status=True) -> None:
        if error_details is not None or error_code is not None:
            self.set_tags({"acpt.v1.error": f"{error_code or 'UserError'}: {error_details}"})
        if _set_status:
            self._set_status("FAILED")

    def cancel(self) -> None:
        if self.get_status() not in TERMINAL_STATUSES:
            self._set_status("KILLED")

    def get_portal_url(self) -> str:
        ws = self._workspace
        return (f"https://ml.azure.com/runs/{self._id}"
                + f"?wsid=/subscriptions/{ws.subscription_id}/resourcegroups/{ws.resource_group}/workspaces/{ws.name}")

    # ---- tags and properties (MLflow run tags; v1 properties under a prefix) --------------------------
    @property
    def tags(self) -> dict:
        return self.get_tags()

    def _tags(self) -> dict:
        return dict(self._mlflow_run().data.tags)

    def get_tags(self) -> dict:
        return user_tags(self._tags())

    def set_tags(self, tags) -> None:
        run_metrics.set_tags(self._workspace, self._id, {str(k): "" if v is None else str(v)
                                                         for k, v in dict(tags).items()})

    def remove_tags(self, tags) -> None:
        run_metrics.delete_tags(self._workspace, self._id, [tags] if isinstance(tags, str) else list(tags))

    @property
    def properties(self) -> dict:
        return {k[len(PROPERTY_TAG):]: v for k, v in self._tags().items() if k.startswith(PROPERTY_TAG)}

    def add_properties(self, properties) -> None:
        run_metrics.set_tags(self._workspace, self._id, {PROPERTY_TAG + str(k): str(v)
                                                         for k, v in dict(properties).items()})

    # ---- children -----------------------------------------------------------------------------------
    def _new_child(self, run_id, name):
        return start(self._experiment, parent_id=self._id, display_name=name)

    def get_children(self, recursive=False, tags=None, properties=None, type=None, status=None,
                     _rehydrate_runs=True):
        store = run_metrics.mlflow_store(self._workspace)
        experiment_id = self._mlflow_run().info.experiment_id
        with run_metrics.mlflow_errors(self._id, "list the child runs"):
            found = store.search_runs([experiment_id], f"tags.{_PARENT_TAG} = '{self._id}'", 1, 1000)
        runs = [CloudInteractiveRun(self._experiment, r.info.run_id) for r in found]
        return iter(filter_children(runs, recursive, tags, properties, type, status))

    def get_environment(self):
        """None: an interactive run executes in this process, not in an Azure ML environment."""
        return None

    @property
    def description(self):
        return self._tags().get("mlflow.note.content")

    def _number(self):
        """Run history numbers MLflow-made runs like jobs."""
        return CloudRun._number(self)

    def is_terminal(self) -> bool:
        return self.get_status() in TERMINAL_STATUSES

    register_model = refused("Run.register_model (on an interactive cloud run)", "it has no job outputs to point at.",
                             "Model.register(ws, model_path=local_path, model_name=name)")
