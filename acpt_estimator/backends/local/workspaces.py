"""Local workspaces: a local workspace's own operations (details made here, the local store's MLflow URI) and the
directory used while local runs are forced (every name is a local workspace unless Azure coordinates are given).

References as ``backends/azureml/workspaces.py``: ``{"subscription_id", "resource_group", "name", "location",
"is_local"}``."""

from __future__ import annotations

LOCAL_WORKSPACE_NAME = "local"
LOCAL_LOCATION = "local"  # what ws.location reads offline (v1 code concatenates it, so never None)


def local_ref(name=None) -> dict:
    return {"subscription_id": "local", "resource_group": "local", "name": name or LOCAL_WORKSPACE_NAME,
            "location": LOCAL_LOCATION, "is_local": True}


class LocalWorkspace:
    """A workspace nothing contacts: a local-only one, or any while local runs are forced or ``convert`` captures."""

    def __init__(self, workspace):
        self.workspace = workspace

    def details(self) -> dict:
        ws = self.workspace
        return {"id": ws.arm_id, "name": ws.name, "location": ws._location or LOCAL_LOCATION, "type": "local",
                "tags": dict(ws._tags or {}), "sku": ws._sku, "friendlyName": ws.name, "description": None,
                "provisioningState": "Succeeded", "discoveryUrl": None}

    def update(self, friendly_name, description, tags, image_build_compute) -> None:
        return None  # nothing to send: the workspace object keeps its tags itself

    def mlflow_tracking_uri(self, details: dict) -> str:
        """The local store's MLflow SQLite store, with every finished local run copied in (a run started through
        MLflow is then a run of its experiment)."""
        from .mlflow_sqlite import synced_tracking_uri
        from .store import home

        return synced_tracking_uri(home())

    def sync_keys(self, no_wait=False) -> None:
        return None  # no storage keys to sync


class LocalWorkspaces:
    """The directory while local runs are forced."""

    is_local = True

    def get(self, name, subscription_id, resource_group, location=None) -> dict:
        if subscription_id and resource_group:  # Azure coordinates given: that workspace (offline while forced)
            return {"subscription_id": subscription_id, "resource_group": resource_group, "name": name,
                    "location": location, "is_local": False}
        return local_ref(name)

    def missing_config(self, start: str) -> dict:
        return local_ref()

    def create(self, name, auth, subscription_id, resource_group, location, exist_ok, show_output, fields: dict,
               cloud="AzureCloud") -> dict:
        return local_ref(name)

    def list(self, subscription_id, auth, resource_group) -> dict:
        return {LOCAL_WORKSPACE_NAME: [local_ref()]}
