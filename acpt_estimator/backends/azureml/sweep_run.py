"""HyperDriveConfig on Azure ML: submit the v2 sweep job and read its trials like v1's ``HyperDriveRun``."""

from __future__ import annotations

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
    try:
        with azure_errors(workspace, f"submit a HyperDrive run to experiment {experiment.name!r}"):
            created = client.jobs.create_or_update(job, skip_validation=True)
    finally:
        remove_private()  # the environment's build folder is uploaded (or the submission failed)
    return CloudHyperDriveRun(experiment, created.name, job=created, config=config)


class CloudHyperDriveRun(HyperDriveRun, CloudRun):
    """The sweep's parent run; trials are its children (run history), metrics come from MLflow per trial."""

    def __init__(self, experiment, run_id, job=None, config=None):
        super().__init__(experiment, run_id, job)
        self._config = config

    def _hyperparameters_of(self, child):
        """The sampled values (a JSON string, as v1 returned it): the service records them as tags of the sweep
        run, one per trial, keyed by the trial's id (``<sweep>_<n>``)."""
        if self._parent_tags is None or child.id not in self._parent_tags:
            self._parent_tags = self.get_tags()
        return self._parent_tags.get(child.id)

    _parent_tags = None


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
