"""HyperDriveConfig on Azure ML: submit the v2 sweep job and read its trials like v1's ``HyperDriveRun``."""

from __future__ import annotations

from ...hyperdrive.results import HyperDriveResults
from ...snapshot_guard import check_snapshot
from .client import azure_errors, ml_client
from .run import CloudRun
from ...names import new_run_id


def submit_sweep(config, experiment, tags=None):
    """The ``HyperDriveConfig._submit`` hook for the cloud backend."""
    from ...hyperdrive.sweep import to_sweep_job

    workspace = experiment.workspace
    client = ml_client(workspace)
    check_snapshot(config.trial_spec(experiment.name, tags).source_directory)
    job = to_sweep_job(config, experiment_name=experiment.name, tags=tags)  # validated by the translation
    job.name = new_run_id(experiment.name)
    with azure_errors(workspace, f"submit a HyperDrive run to experiment {experiment.name!r}"):
        created = client.jobs.create_or_update(job, skip_validation=True)
    return CloudHyperDriveRun(experiment, created.name, job=created, config=config)


class CloudHyperDriveRun(HyperDriveResults, CloudRun):
    """The sweep's parent run; trials are its children (run history), metrics come from MLflow per trial."""

    def __init__(self, experiment, run_id, job=None, config=None):
        super().__init__(experiment, run_id, job)
        self._config = config

    def get_children(self, recursive=False, tags=None, properties=None, type=None, status=None,
                     _rehydrate_runs=True):
        with azure_errors(self._workspace, f"list the trials of {self._id!r}"):
            children = list(ml_client(self._workspace).jobs.list(parent_job_name=self._id))
        runs = [CloudRun(self._experiment, child.name, job=child) for child in children]
        if status is not None:
            runs = [r for r in runs if r._status == status]
        if tags:
            wanted = tags if isinstance(tags, dict) else {t: None for t in ([tags] if isinstance(tags, str) else tags)}
            runs = [r for r in runs if all(k in r.tags and (v is None or r.tags[k] == v) for k, v in wanted.items())]
        return iter(runs)

    def _hyperparameters_of(self, child):
        """The sampled values (a JSON string, as v1 returned it): the service records them as tags of the sweep
        run, one per trial, keyed by the trial's id (``<sweep>_<n>``)."""
        if self._parent_tags is None or child.id not in self._parent_tags:
            self._parent_tags = self.get_tags()
        return self._parent_tags.get(child.id)

    _parent_tags = None
