"""The Azure ML backend: JobSpec -> v2 command job through azure-ai-ml -> CloudRun handle (azure imported on use).

Owns: translation to v2 jobs, the MLClient and run-history calls, cloud run handles, and a workspace's services
(services.py: compute, datasets, datastores, environments, models, secrets).
May import: the engine; azure-ai-ml/mlflow only inside functions; never acpt_estimator.v1.
"""

from __future__ import annotations


def submit(spec, experiment):
    """Submit one JobSpec to the experiment's workspace; returns a CloudRun."""
    from .submission import submit as _submit

    return _submit(spec, experiment)


def submit_sweep(config, experiment, tags=None):
    """Submit a HyperDriveConfig as a v2 sweep job; returns a CloudHyperDriveRun."""
    from .sweep_run import submit_sweep as _submit_sweep

    return _submit_sweep(config, experiment, tags=tags)


def list_runs(experiment, type=None, tags=None, properties=None, include_children=False):
    """Cloud runs of the experiment, filtered by run history; none for local-only workspaces."""
    from ...locality import is_local

    workspace = experiment.workspace
    if is_local(workspace):
        return
    from .listing import experiment_runs, run_from_record

    for record in experiment_runs(workspace, experiment.name, tags=tags, properties=properties, run_type=type,
                                  include_children=include_children):
        yield run_from_record(experiment, record)
