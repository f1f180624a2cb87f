"""The Azure ML backend: JobSpec -> v2 command job through azure-ai-ml -> CloudRun (azure imported on use)."""

from __future__ import annotations


def submit(spec, experiment):
    """Submit one JobSpec to the experiment's workspace; returns a CloudRun."""
    from .submission import submit as _submit

    return _submit(spec, experiment)


def submit_sweep(config, experiment, tags=None):
    """Submit a HyperDriveConfig as a v2 sweep job; returns a CloudHyperDriveRun."""
    from .sweep_run import submit_sweep as _submit_sweep

    return _submit_sweep(config, experiment, tags=tags)


def list_runs(experiment) -> list:
    """Cloud runs of the experiment; none for local-only workspaces or when nothing may reach Azure."""
    workspace = experiment.workspace
    if getattr(workspace, "_offline", True):
        return []
    from .submission import list_runs as _list_runs

    return _list_runs(experiment)
