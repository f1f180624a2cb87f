"""The fake's routes behind v1's workspace, compute, datastore and model members (mixed into FakeState).

Shapes come from azure-ai-ml's generated REST client, .venv/lib/python3.11/site-packages/azure/ai/ml/_restclient/
arm_ml_service: operations/_operations.py for the URLs and status codes (build_workspaces_list_by_resource_group_
request, build_compute_list_nodes_request, build_compute_start/stop/restart_request: POST answered 202 + Location,
build_virtual_machine_sizes_list_request, build_datastores_create_or_update/delete_request,
build_model_versions_delete_request, build_model_containers_list_request) and models/_models.py for the bodies
(AmlComputeProperties, AmlComputeNodesInformation, ComputeInstanceProperties, VirtualMachineSizeListResult,
Workspace, Datastore, ModelContainer).
"""

from __future__ import annotations

_ARM = r"/subscriptions/(?P<sub>[^/]+)"
_RG_WORKSPACES = _ARM + r"/resourceGroups/(?P<rg>[^/]+)/providers/Microsoft\.MachineLearningServices/workspaces"
_INSTANCE_STATES = {"start": "Running", "stop": "Stopped", "restart": "Running"}


def runtime_properties(compute_type) -> dict:
    """What the service adds to a compute's properties once it exists (read-only fields v1's status shows)."""
    if compute_type == "ComputeInstance":
        return {"state": "Running", "createdBy": {"userName": "fake-user"}, "errors": None}
    return {"allocationState": "Steady", "allocationStateTransitionTime": "2026-01-01T00:00:00Z",
            "currentNodeCount": 1, "targetNodeCount": 1, "errors": None,
            "nodeStateCounts": {"idleNodeCount": 1, "runningNodeCount": 0, "preparingNodeCount": 0,
                                "unusableNodeCount": 0, "leavingNodeCount": 0, "preemptedNodeCount": 0}}


class CoreAssetsMixin:
    """Handlers over FakeState's ``computes``, ``registered_datastores`` and ``models``."""

    workspace_tags = {"team": "vision"}

    def _core_routes(self, ws_pattern):
        return [
            ("GET", _RG_WORKSPACES, self.list_workspaces),
            ("GET", _ARM + r"/providers/Microsoft\.MachineLearningServices/locations/(?P<location>[^/]+)/vmSizes",
             self.list_vm_sizes),
            ("POST", ws_pattern + r"/computes/(?P<name>[^/]+)/listNodes", self.list_nodes),
            ("POST", ws_pattern + r"/computes/(?P<name>[^/]+)/(?P<action>start|stop|restart)", self.instance_action),
            ("PUT", ws_pattern + r"/datastores/(?P<name>[^/]+)", self.put_datastore),
            ("DELETE", ws_pattern + r"/datastores/(?P<name>[^/]+)", self.delete_datastore),
            ("DELETE", ws_pattern + r"/models/(?P<name>[^/]+)/versions/(?P<version>[^/]+)", self.delete_model_version),
            ("GET", ws_pattern + r"/models", self.list_model_containers),
        ]

    def workspace_details(self) -> dict:
        """The ARM fields beyond what job submission needs: sku, tags, identity, linked resources."""
        rg = f"/subscriptions/{self.subscription_id}/resourceGroups/{self.resource_group}/providers"
        return {"sku": {"name": "Basic", "tier": "Basic"}, "tags": dict(self.workspace_tags),
                "identity": {"type": "SystemAssigned", "principalId": "fake-principal", "tenantId": "fake-tenant"},
                "properties": {"creationTime": "2026-01-01T00:00:00Z", "provisioningState": "Succeeded",
                               "keyVault": f"{rg}/Microsoft.KeyVault/vaults/fakevault",
                               "storageAccount": f"{rg}/Microsoft.Storage/storageAccounts/fakeaccount",
                               "description": "the fake workspace", "hbiWorkspace": False}}

    def list_workspaces(self, **_):
        _, _, resource = self.get_workspace()
        return 200, {}, {"value": [resource]}

    def list_vm_sizes(self, location, **_):
        return 200, {}, {"value": [
            {"name": "STANDARD_D2_V2", "family": "standardDv2Family", "vCPUs": 2, "gpus": 0, "memoryGB": 7.0,
             "maxResourceVolumeMB": 102400, "supportedComputeTypes": ["AmlCompute", "ComputeInstance"]},
            {"name": "STANDARD_NC6S_V3", "family": "standardNCSv3Family", "vCPUs": 6, "gpus": 1, "memoryGB": 112.0,
             "maxResourceVolumeMB": 344064, "supportedComputeTypes": ["AmlCompute"]}]}

    def list_nodes(self, name, **_):
        props = self.computes.get(name)
        if props is None:
            return self.get_compute(name=name)
        count = props["properties"].get("currentNodeCount", 0)
        return 200, {}, {"nodes": [{"nodeId": f"tvmps_{i}", "privateIpAddress": f"10.0.0.{4 + i}",
                                    "publicIpAddress": f"20.0.0.{4 + i}", "port": 50000 + i, "nodeState": "idle",
                                    "runId": None} for i in range(count)], "nextLink": None}

    def instance_action(self, name, action, **_):
        props = self.computes.get(name)
        if props is None:
            return self.get_compute(name=name)
        props["properties"]["state"] = _INSTANCE_STATES[action]
        return 202, {"Location": f"{self.base_url}{self.ws_id}/operationResults/{action}-{name}",
                     "Retry-After": "0"}, None

    def put_datastore(self, name, body, **_):
        props = dict(body["properties"])
        props.pop("credentials", None)  # the service never returns secrets
        props["credentials"] = {"credentialsType": body["properties"].get("credentials", {}).get("credentialsType",
                                                                                                   "None")}
        self.registered_datastores[name] = props
        return 200, {}, self._datastore_resource(name, False)

    def delete_datastore(self, name, **_):
        self.registered_datastores.pop(name, None)
        return 200, {}, None

    def delete_model_version(self, name, version, **_):
        self.models.pop((name, version), None)
        return 200, {}, None

    def list_model_containers(self, **_):
        names = sorted({n for n, _ in self.models})
        return 200, {}, {"value": [self.get_model(name=n)[2] for n in names]}
