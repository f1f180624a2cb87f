"""Backends: each turns a JobSpec into a running job and returns a v1-shaped Run."""

from __future__ import annotations

import importlib

_MODULES = {
    "capture": "acpt_estimator.backends.capture",
    "local": "acpt_estimator.backends.local",
    "cloud": "acpt_estimator.backends.azureml",
}


def get(name: str):
    """The backend module for 'capture', 'local' or 'cloud'; each has ``submit(spec, experiment) -> Run``."""
    return importlib.import_module(_MODULES[name])


def list_runs(experiment) -> list:
    """Runs of an experiment from every backend that has some; local first."""
    runs = []
    for name in ("local", "cloud"):
        module = get(name)
        if hasattr(module, "list_runs"):
            runs.extend(module.list_runs(experiment))
    return runs
