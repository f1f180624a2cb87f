"""HyperDriveConfig on Azure ML: submit the v2 sweep job and read its trials like v1's ``HyperDriveRun``."""

from __future__ import annotations

import json

from ...run_handle import ExperimentRef
from ...snapshot_guard import check_snapshot
from .build_context import remove_private
from .client import azure_errors, ml_client
from .run import CloudHyperDriveRun, run_for_job  # noqa: F401 - run_for_job: submission, find_run
from .sweep_tags import PARAMETER_NAMES, parameter_names, trial_tag  # noqa: F401 - trial_tag: older callers
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


def find_run(workspace, run_id: str, experiment=None):
    """``Run.get(workspace, run_id)`` for a cloud run: a job, else an MLflow-made (interactive) run."""
    from azure.core.exceptions import ResourceNotFoundError

    try:
        with azure_errors(workspace, f"read run {run_id!r}"):
            job = ml_client(workspace).jobs.get(run_id)
    except ResourceNotFoundError:
        from .interactive import find_interactive

        return find_interactive(workspace, run_id, experiment)
    experiment = experiment or ExperimentRef(workspace, job.experiment_name)
    return run_for_job(experiment, job)
