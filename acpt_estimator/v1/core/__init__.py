"""v1 ``azureml.core``: names resolve on first use (PEP 562).

Owns Workspace, Experiment, Run (written once over a backend handle, ``_run_handle.py``), Model, Datastore,
Environment, compute. May import the engine and backends; never imported by them. Where a workspace's assets live
(the local store or Azure) is the services' choice (``acpt_estimator.services.services_for``), not these classes'.

Training scripts import ``azureml.core.run`` in every rank and need only ``Run``.
"""

import importlib
import urllib

from acpt_estimator._lazy import lazy_names

RUN_TYPE_PROVIDERS_ENTRYPOINT_KEY = "azureml_run_type_providers"  # v1's entry-point group of run types

_LAZY = {
    "VERSION": "acpt_estimator",
    "ComputeTarget": "compute", "ContainerRegistry": "container_registry", "Datastore": "datastore",
    "Dataset": "dataset", "Environment": "environment",
    "Experiment": "experiment", "Model": "model", "Run": "run", "RunConfiguration": "runconfig",
    "ScriptRunConfig": "script_run_config", "Workspace": "workspace", "ScriptRun": "script_run", "get_run": "run",
    "Image": "image", "Keyvault": "keyvault", "LinkedService": "linked_service",
    "SynapseWorkspaceLinkedServiceConfiguration": "linked_service", "PrivateEndPoint": "private_endpoint",
    "PrivateEndPointConfig": "private_endpoint", "Webservice": "webservice",
    "attach_legacy_compute_target": "compute_target", "is_compute_target_prepared": "compute_target",
    "prepare_compute_target": "compute_target", "remove_legacy_compute_target": "compute_target",
    "diagnostic_log": "util",
}
_URLLIB_SUBMODULES = ("error", "parse", "request", "response", "robotparser")


def _urllib_getattr(name):
    """``urllib.request`` after a bare ``import urllib``: v1's ``import azureml.core`` imported it on the way, and v1
    code relied on that. Resolved on first use here, which keeps its ~20 ms (http, email, ssl) off the import line."""
    if name in _URLLIB_SUBMODULES:
        return importlib.import_module(f"urllib.{name}")
    raise AttributeError(f"module 'urllib' has no attribute {name!r}")


if not hasattr(urllib, "__getattr__"):
    urllib.__getattr__ = _urllib_getattr


__getattr__, __dir__ = lazy_names(__name__, _LAZY, shown_as="azureml.core")
__all__ = sorted([*_LAZY, "RUN_TYPE_PROVIDERS_ENTRYPOINT_KEY"])
