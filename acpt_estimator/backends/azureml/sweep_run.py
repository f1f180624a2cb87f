"""HyperDriveConfig on Azure ML: submit the v2 sweep job and read its trials like v1's ``HyperDriveRun``."""

from __future__ import annotations

from ...snapshot_guard import check_snapshot
from .client import azure_errors, ml_client
from .run import CloudRun
from .submission import new_run_id


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


class CloudHyperDriveRun(CloudRun):
    """The sweep's parent run; trials are its children (run history), metrics come from MLflow per trial."""

    def __init__(self, experiment, run_id, job=None, config=None):
        super().__init__(experiment, run_id, job)
        self._config = config

    @property
    def type(self) -> str:
        return "hyperdrive"

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

    def get_metrics(self, name=None, recursive=False, run_type=None, populate=False) -> dict:
        """v1: ``{trial id: {metric: value or list}}``."""
        return {child.id: child.get_metrics(name) for child in self.get_children()}

    def get_hyperparameters(self) -> dict:
        """The sampled values per trial, as the service recorded them on the trial (tags/properties)."""
        result = {}
        for child in self.get_children():
            recorded = child.properties.get("hyperparameters") or child.tags.get("hyperparameters")
            result[child.id] = recorded
        return result

    def _primary(self):
        if self._config is None:
            from ...exceptions import UserErrorException

            raise UserErrorException("This HyperDrive run was not submitted in this session, so its primary metric "
                                     "is unknown; use get_children() and get_metrics().")
        cfg = self._config.primary_metric_config
        return cfg["name"], cfg["goal"] == "maximize"

    def _scored_children(self, include_failed=True, include_canceled=True):
        name, maximize = self._primary()
        pick = max if maximize else min
        scored = []
        for child in self.get_children():
            status = child.get_status()
            if (status == "Failed" and not include_failed) or (status == "Canceled" and not include_canceled):
                continue
            value = child.get_metrics(name).get(name)
            values = value if isinstance(value, list) else ([] if value is None else [value])
            scored.append((child, pick(values) if values else None, status))
        return scored, maximize

    def get_best_run_by_primary_metric(self, include_failed=True, include_canceled=True,
                                       include_resume_from_runs=True):
        """The trial whose best logged primary-metric value (max or min over its values) is best; None if none."""
        scored, maximize = self._scored_children(include_failed, include_canceled)
        scored = [s for s in scored if s[1] is not None]
        if not scored:
            return None
        return (max if maximize else min)(scored, key=lambda s: s[1])[0]

    def get_children_sorted_by_primary_metric(self, top=0, reverse=False, discard_no_metric=False) -> list:
        scored, maximize = self._scored_children()
        with_metric = sorted((s for s in scored if s[1] is not None), key=lambda s: s[1], reverse=maximize != reverse)
        rows = with_metric + ([] if discard_no_metric else [s for s in scored if s[1] is None])
        rows = rows[:top] if top else rows
        return [{"run_id": child.id, "hyperparameters": child.properties.get("hyperparameters"),
                 "best_primary_metric": value, "status": status} for child, value, status in rows]
