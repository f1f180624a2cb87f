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


def experiment_names(workspace) -> list:
    """The workspace's experiments, as run history lists them."""
    from .listing import experiment_names as names

    return names(workspace)
