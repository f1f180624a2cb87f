"""v1 ``ws.datasets``, ``ws.environments`` and ``ws.experiments``: name-keyed dicts, local or cloud.

Each uses the owning class's v1 lister when it has one (``Dataset.get_all``, ``Environment.list``,
``Experiment.list``), else reads the names from the local store or the workspace.
"""

from __future__ import annotations

import os


def _cloud(workspace, action, read):
    from acpt_estimator.backends.azureml.client import azure_errors, ml_client

    with azure_errors(workspace, action):
        return read(ml_client(workspace))


def datasets(workspace) -> dict:
    from acpt_estimator.v1.core.dataset import Dataset

    if hasattr(Dataset, "get_all"):
        return dict(Dataset.get_all(workspace))
    if workspace._offline:
        from acpt_estimator.backends.local.datastores import DATASETS
        from acpt_estimator.backends.local.store import home

        root = os.path.join(home(), DATASETS)
        names = sorted(n for n in os.listdir(root) if not n.startswith(".")) if os.path.isdir(root) else []
    else:
        names = sorted({d.name for d in _cloud(workspace, "list datasets", lambda c: list(c.data.list()))})
    return {name: Dataset.get_by_name(workspace, name) for name in names}


def environments(workspace) -> dict:
    """Curated ACPT environments (every workspace has them) plus, in the cloud, the registered ones."""
    from acpt_estimator.environments import catalog
    from acpt_estimator.v1.core.environment import Environment

    if hasattr(Environment, "list"):
        return dict(Environment.list(workspace))
    names = [env.workspace_name for env in catalog() if env.status != "removed"]
    if not workspace._offline:
        names += [e.name for e in _cloud(workspace, "list environments", lambda c: list(c.environments.list()))]
    return {name: Environment.get(workspace, name) for name in sorted(set(names))}


def experiments(workspace) -> dict:
    from acpt_estimator.v1.core.experiment import Experiment

    if hasattr(Experiment, "list"):
        return {experiment.name: experiment for experiment in Experiment.list(workspace)}
    if workspace._offline:
        from acpt_estimator.backends.local.store import all_run_records

        names = {r.get("experimentName") for r in all_run_records()}
    else:
        names = {getattr(j, "experiment_name", None)
                 for j in _cloud(workspace, "list experiments", lambda c: list(c.jobs.list()))}
    return {name: Experiment(workspace, name, _skip_name_validation=True) for name in sorted(n for n in names if n)}
