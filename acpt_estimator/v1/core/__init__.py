"""v1 ``azureml.core``: names resolve on first use (PEP 562).

Training scripts import ``azureml.core.run`` in every rank and need only ``Run``.
"""

from acpt_estimator._lazy import lazy_names

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
}


__getattr__, __dir__ = lazy_names(__name__, _LAZY, shown_as="azureml.core")
__all__ = sorted(_LAZY)
