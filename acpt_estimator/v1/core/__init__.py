"""v1 ``azureml.core``: names resolve on first use (PEP 562).

Training scripts import ``azureml.core.run`` in every rank and need only ``Run``.
"""

import importlib

_LAZY = {
    "ComputeTarget": "compute", "ContainerRegistry": "container_registry", "Datastore": "datastore", "Dataset": "dataset", "Environment": "environment",
    "Experiment": "experiment", "Model": "model", "Run": "run", "RunConfiguration": "runconfig",
    "ScriptRunConfig": "script_run_config", "Workspace": "workspace", "ScriptRun": "script_run", "get_run": "run",
    "Image": "image", "Keyvault": "keyvault", "LinkedService": "linked_service",
    "SynapseWorkspaceLinkedServiceConfiguration": "linked_service", "PrivateEndPoint": "private_endpoint",
    "PrivateEndPointConfig": "private_endpoint", "Webservice": "webservice",
    "attach_legacy_compute_target": "compute_target", "is_compute_target_prepared": "compute_target",
    "prepare_compute_target": "compute_target", "remove_legacy_compute_target": "compute_target",
}


def __getattr__(name):
    if name == "VERSION":
        from acpt_estimator import VERSION

        return VERSION
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'azureml.core' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_LAZY) | {"VERSION"})


__all__ = sorted(list(_LAZY) + ["VERSION"])
