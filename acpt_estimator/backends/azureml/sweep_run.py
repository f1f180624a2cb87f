"""HyperDriveConfig on Azure ML: submit the v2 sweep job and read its trials like v1's ``HyperDriveRun``."""

from __future__ import annotations

import json

from acpt_estimator.v1.train.hyperdrive.run import HyperDriveRun
from ...snapshot_guard import check_snapshot
from .build_context import remove_private
from .client import azure_errors, ml_client
from .run import CloudRun
from ...names import new_run_id


def submit_sweep(config, experiment, tags=None):
    """The ``HyperDriveConfig._submit`` hook for the cloud backend."""
    from ...hyperdrive.sweep import to_sweep_job

    workspace = experiment.workspace
    client = ml_client(workspace)
    trial = config.trial_spec(experiment.name, tags)
    check_snapshot(trial.source_directory, entry_script=trial.entry_script)
    job = to_sweep_job(config, experiment_name=experiment.name, tags=tags)  # validated by the translation
    job.name = new_run_id(experiment.name)
    # The service records trial values under v2 search-space names; keep the v1 names the user gave on the job,
    # so a sweep reopened by id (no HyperDriveConfig) reads them back as v1 did.
    job.properties = {**(job.properties or {}), PARAMETER_NAMES: json.dumps(parameter_names(config))}
    try:
        with azure_errors(workspace, f"submit a HyperDrive run to experiment {experiment.name!r}"):
            created = client.jobs.create_or_update(job, skip_validation=True)
    finally:
        remove_private()  # the environment's build folder is uploaded (or the submission failed)
    return CloudHyperDriveRun(experiment, created.name, job=created, config=config)


class CloudHyperDriveRun(HyperDriveRun, CloudRun):
    """The sweep's parent run; trials are its children (run history), metrics come from run history per trial."""

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


PARAMETER_NAMES = "acpt.v1.parameter_names"


def trial_tag(sweep_tags: dict, trial_id: str):
    """A trial's values as the service tagged the sweep run: ``_aml_system_<trial id>``, older ``<trial id>``
    (azureml-train-core's HyperDriveRun.get_hyperparameters reads both)."""
    for key in (f"_aml_system_{trial_id}", trial_id):
        if key in sweep_tags:
            return sweep_tags[key]
    return None


def parameter_names(config) -> dict:
    """{v2 search-space name: the v1 name the user gave} (``'--batch-size'`` became ``batch_size``)."""
    from acpt_estimator.v1.train.hyperdrive.runconfig import input_name_for

    return {input_name_for(name): name for name in config._sampling.parameter_space}


def run_for_job(experiment, job):
    """A v2 job as v1 saw it: a sweep is a HyperDriveRun, anything else a ScriptRun."""
    kind = CloudHyperDriveRun if str(getattr(job, "type", "")).lower() == "sweep" else CloudRun
    return kind(experiment, job.name, job=job)


def find_run(workspace, run_id: str, experiment=None):
    """``Run.get(workspace, run_id)`` for a cloud run: a job, else an MLflow-made (interactive) run."""
    from azure.core.exceptions import ResourceNotFoundError

    from acpt_estimator.v1.core.experiment import Experiment

    try:
        with azure_errors(workspace, f"read run {run_id!r}"):
            job = ml_client(workspace).jobs.get(run_id)
    except ResourceNotFoundError:
        from .interactive import find_interactive

        return find_interactive(workspace, run_id, experiment)
    experiment = experiment or Experiment(workspace, job.experiment_name, _skip_name_validation=True)
    return run_for_job(experiment, job)
