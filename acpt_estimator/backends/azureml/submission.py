"""Submit a JobSpec as a v2 command job: snapshot checks, translation, ``ml_client.jobs.create_or_update``."""

from __future__ import annotations

from ...names import new_run_id
from ...snapshot_guard import check_snapshot
from .build_context import remove_private
from .client import azure_errors, ml_client


def submit(spec, experiment):
    """Create the job and return a CloudRun at once, like v1's ``experiment.submit``."""
    from .run import CloudRun
    from .translate import to_command

    workspace = experiment.workspace
    client = ml_client(workspace)
    check_snapshot(spec.source_directory, entry_script=spec.entry_script)
    node = to_command(spec)  # runs both SDK validations, so create_or_update can skip its own
    node.name = new_run_id(experiment.name)
    node.experiment_name = experiment.name
    try:
        with azure_errors(workspace, f"submit a run to experiment {experiment.name!r}"):
            # The job name is fixed before the call: azure-core's retries of a 429/503 re-PUT the same job.
            created = client.jobs.create_or_update(node, skip_validation=True)
    finally:
        remove_private()  # the environment's build folder is uploaded (or the submission failed)
    return CloudRun(experiment, created.name, job=created)


def list_runs(experiment) -> list:
    """The experiment's v2 jobs as CloudRuns, newest first."""
    from .sweep_run import run_for_job

    workspace = experiment.workspace
    with azure_errors(workspace, f"list the runs of experiment {experiment.name!r}"):
        jobs = [j for j in ml_client(workspace).jobs.list() if getattr(j, "experiment_name", None) == experiment.name]
    jobs.sort(key=lambda j: str(getattr(getattr(j, "creation_context", None), "created_at", "") or ""), reverse=True)
    return [run_for_job(experiment, job) for job in jobs]


def experiment_names(workspace) -> list:
    """Experiment names of the workspace's jobs (v2 lists experiments through their jobs)."""
    with azure_errors(workspace, "list the experiments"):
        jobs = ml_client(workspace).jobs.list()
        return list(dict.fromkeys(j.experiment_name for j in jobs if getattr(j, "experiment_name", None)))
