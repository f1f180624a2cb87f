"""Shim for ``azureml.core``: re-exports from acpt_estimator (see README, "Import shims")."""

import importlib

from acpt_estimator._v1_guard import check_no_real_azureml_core

check_no_real_azureml_core()

# Resolved on first use: training scripts import azureml.core.run in every rank and need only Run.
_LAZY = {
    "ComputeTarget": "acpt_estimator.compute", "Datastore": "acpt_estimator.data", "Dataset": "acpt_estimator.dataset",
    "Environment": "acpt_estimator.environment", "Experiment": "acpt_estimator.experiment",
    "Model": "acpt_estimator.model", "Run": "acpt_estimator.run", "RunConfiguration": "acpt_estimator.runconfig",
    "ScriptRunConfig": "acpt_estimator.script_run_config", "VERSION": "acpt_estimator",
    "Workspace": "acpt_estimator.workspace",
}


def __getattr__(name):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'azureml.core' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_LAZY))


__all__ = sorted(_LAZY)
