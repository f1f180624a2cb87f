"""Backends: each turns a JobSpec into a running job and returns its run handle (``acpt_estimator.run_handle``).

Owns: local/ (mpiexec, the local store), azureml/ (azure-ai-ml, run history), capture.py (YAML export), and in
local/ and azureml/ the workspace services ``acpt_estimator.services`` picks between (services.py, compute.py,
datasets.py, environments.py, workspaces.py, datastore_registry.py).
May import: the engine (spec, tracking, paths, names, snapshot*, hyperdrive/, run_handle); never acpt_estimator.v1.
v1 objects handed in (an Experiment, a HyperDriveConfig, an Environment or a dataset given to a service) are only read
through their attributes and methods.
"""

from __future__ import annotations

import importlib
import sys

from ..locality import is_local

_MODULES = {
    "capture": "acpt_estimator.backends.capture",
    "local": "acpt_estimator.backends.local",
    "cloud": "acpt_estimator.backends.azureml",
}


def get(name: str):
    """The backend module for 'capture', 'local' or 'cloud'; each has ``submit(spec, experiment) -> Run``."""
    module = _MODULES[name]
    return sys.modules.get(module) or importlib.import_module(module)  # (import_module's machinery on every job)


def list_runs(experiment, type=None, tags=None, properties=None, include_children=False):
    """Run handles of an experiment, v1's ``get_runs`` filters applied: the local store's first (filtered here),
    then the workspace's (filtered by run history, read page by page as the caller iterates)."""
    from ..tracking import tags_match

    for run in get("local").list_handles(experiment):
        if ((include_children or run._parent_id() is None) and (type is None or run.type == type)
                and tags_match(run.get_tags(), tags) and tags_match(run.properties, properties)):
            yield run
    yield from get("cloud").list_runs(experiment, type=type, tags=tags, properties=properties,
                                      include_children=include_children)


def find_run(workspace, run_id: str, experiment=None):
    """A run by id: the local store's when it has that run, else the workspace's (unless it is local-only)."""
    from ..exceptions import UserErrorException
    from .local import find_run as find_local

    run = find_local(run_id, experiment)
    if run is not None:
        return run
    if is_local(workspace):
        raise UserErrorException(
            f"No run {run_id!r} in the local store ($ACPT_ESTIMATOR_HOME, default ./.acpt) and the workspace "
            f"{getattr(workspace, 'name', workspace)!r} is local-only; pass the run id of a local run, or a "
            "workspace from Workspace.from_config()/Workspace.get() for a cloud run.")
    from .azureml.sweep_run import find_run as find_cloud

    return find_cloud(workspace, run_id, experiment)


def experiment_names(workspace) -> list:
    """Experiments with runs: the local store's, then (for a cloud workspace) the workspace's jobs'."""
    from .local.experiments import experiment_names as local_names

    names = local_names()
    if not is_local(workspace):
        from .azureml.submission import experiment_names as cloud_names

        names += [n for n in cloud_names(workspace) if n not in names]
    return names
