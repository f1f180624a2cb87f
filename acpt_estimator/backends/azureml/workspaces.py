"""Azure ML workspaces: one workspace's service (its ARM resource in v1's ``get_details()`` shape, update, MLflow URI,
key sync) and the directory that gets, creates and lists workspaces; azure imported on use.

Workspaces come back as references, ``{"subscription_id", "resource_group", "name", "location", "is_local"}``;
v1's ``Workspace`` is made from one (``Workspace._from_ref``)."""

from __future__ import annotations

from typing import NamedTuple

from ...exceptions import UserErrorException, WorkspaceException
from ...names import check_workspace
from .client import azure_errors, ml_client

# v2 REST property (camelCase) -> v1 get_details() key; v1 printed these from the same ARM resource.
_DETAIL_KEYS = (("workspaceId", "workspaceid"), ("description", "description"), ("friendlyName", "friendlyName"),
                ("creationTime", "creationTime"), ("containerRegistry", "containerRegistry"),
                ("keyVault", "keyVault"), ("applicationInsights", "applicationInsights"),
                ("storageAccount", "storageAccount"), ("hbiWorkspace", "hbiWorkspace"),
                ("provisioningState", "provisioningState"), ("discoveryUrl", "discoveryUrl"),
                ("notebookInfo", "notebookInfo"), ("v1LegacyMode", "v1LegacyMode"),
                ("imageBuildCompute", "imageBuildCompute"), ("mlFlowTrackingUri", "mlFlowTrackingUri"),
                ("publicNetworkAccess", "publicNetworkAccess"))


def ref(subscription_id, resource_group, name, location=None, is_local=False) -> dict:
    return {"subscription_id": subscription_id, "resource_group": resource_group, "name": name,
            "location": location, "is_local": is_local}


def v1_details(rest: dict) -> dict:
    """v1's ``ws.get_details()`` dict from the workspace's ARM resource."""
    props = rest.get("properties") or {}
    identity = rest.get("identity") or {}
    sku = rest.get("sku") or {}
    details = {"id": rest.get("id"), "name": rest.get("name"), "location": rest.get("location"),
               "type": rest.get("type"), "tags": dict(rest.get("tags") or {}),
               "sku": sku.get("name", "Basic") if isinstance(sku, dict) else sku}
    details.update({v1: props.get(v2) for v2, v1 in _DETAIL_KEYS})
    details.update({"identityPrincipalId": identity.get("principalId"), "identityTenantId": identity.get("tenantId"),
                    "identityType": identity.get("type")})
    return details


class CloudWorkspace:
    """One workspace's own operations."""

    def __init__(self, workspace):
        self.workspace = workspace

    def details(self) -> dict:
        """v1's details from the workspace's ARM resource (v2's entity drops the sku and creation time v1 reports)."""
        from . import sdk

        ws = self.workspace
        with azure_errors(ws, "read the workspace"):
            return v1_details(sdk.workspace_resource(ml_client(ws), ws.resource_group, ws.name))

    def update(self, friendly_name, description, tags, image_build_compute) -> None:
        """v1 ``ws.update(...)`` through v2 ``begin_update`` of the fields v2 still has."""
        client = ml_client(self.workspace)
        with azure_errors(self.workspace, "update the workspace"):
            entity = client.workspaces.get(self.workspace.name)
            if friendly_name is not None:
                entity.display_name = friendly_name
            if description is not None:
                entity.description = description
            if tags is not None:
                entity.tags = dict(tags)
            if image_build_compute is not None:
                entity.image_build_compute = image_build_compute
            client.workspaces.begin_update(entity).result()

    def mlflow_tracking_uri(self, details: dict) -> str:
        """The workspace's MLflow tracking URI (``azureml://...``), from its details or the MLClient."""
        if details.get("mlFlowTrackingUri"):
            return details["mlFlowTrackingUri"]
        with azure_errors(self.workspace, "read the workspace"):
            return ml_client(self.workspace).workspaces.get(self.workspace.name).mlflow_tracking_uri

    def sync_keys(self, no_wait=False) -> None:
        with azure_errors(self.workspace, "sync the workspace keys"):
            poller = ml_client(self.workspace).workspaces.begin_sync_keys(self.workspace.name)
            if not no_wait:
                poller.result()


class _Probe(NamedTuple):
    """What error messages read of a workspace, before a v1 ``Workspace`` exists."""

    subscription_id: str
    resource_group: str
    name: str

    @classmethod
    def checked(cls, subscription_id, resource_group, name) -> "_Probe":
        check_workspace(subscription_id, resource_group, name)
        return cls(subscription_id, resource_group, name)

    @property
    def arm_id(self) -> str:
        return (f"/subscriptions/{self.subscription_id}/resourceGroups/{self.resource_group}/providers/"
                f"Microsoft.MachineLearningServices/workspaces/{self.name}")


def _scoped_client(auth, subscription_id, resource_group, cloud="AzureCloud"):
    """An MLClient for a subscription/resource group (no workspace yet): Workspace.create and Workspace.list."""
    from azure.ai.ml import MLClient

    from .credentials import to_credential

    extra = {} if cloud in (None, "AzureCloud") else {"cloud": cloud}
    return MLClient(to_credential(auth), subscription_id, resource_group, enable_telemetry=False,
                    show_progress=False, **extra)


class CloudWorkspaces:
    """Workspaces in Azure: references by name, create, list."""

    is_local = False

    def get(self, name, subscription_id, resource_group, location=None) -> dict:
        return ref(subscription_id, resource_group, name, location)

    def missing_config(self, start: str) -> dict:
        raise UserErrorException(
            f"The workspace configuration file config.json, could not be found in {start} or its parent "
            "directories. Download it from the Azure ML studio (workspace overview > Download config.json) "
            "into this folder or .azureml/, or set ACPT_ESTIMATOR_TARGET=local to run jobs on this machine.")

    def create(self, name, auth, subscription_id, resource_group, location, exist_ok, show_output, fields: dict,
               cloud="AzureCloud") -> dict:
        """v1 ``Workspace.create`` over v2: get it when ``exist_ok``, else create it (``begin_create``) and wait."""
        from azure.core.exceptions import ResourceNotFoundError

        for param, value in (("subscription_id", subscription_id), ("resource_group", resource_group)):
            if not value:
                raise UserErrorException(f"Workspace.create({name!r}, {param}=None): pass the Azure {param} to "
                                         "create the workspace in (or set ACPT_ESTIMATOR_TARGET=local to run jobs "
                                         "locally).")
        probe = _Probe.checked(subscription_id, resource_group, name)
        client = _scoped_client(auth, subscription_id, resource_group, cloud)
        with azure_errors(probe, "look up the workspace"):
            try:
                client.workspaces.get(name)
                exists = True
            except ResourceNotFoundError:
                exists = False
        if exists and not exist_ok:
            raise WorkspaceException(f"Workspace with name '{name}' already exists under resource group with name "
                                     f"'{resource_group}'. Pass exist_ok=True to use it, or pick another name.")
        if not exists:
            if not location:
                raise UserErrorException(f"Workspace.create({name!r}) needs location=... (an Azure region such as "
                                         "'eastus') to create a new workspace.")
            entity = v2_workspace(name, location, resource_group, fields)
            with azure_errors(probe, f"create workspace {name!r}"):
                client.workspaces.begin_create(entity).result()
            if show_output:
                print(f"Deployed workspace {name!r} in resource group {resource_group!r}.")
        return ref(subscription_id, resource_group, name)

    def list(self, subscription_id, auth, resource_group) -> dict:
        """v1 ``Workspace.list``: name -> [reference] in a resource group (or the whole subscription)."""
        from azure.ai.ml.constants import Scope

        client = _scoped_client(auth, subscription_id, resource_group or "-")
        probe = _Probe.checked(subscription_id, resource_group or "-", "-")
        with azure_errors(probe, "list workspaces"):
            found = list(client.workspaces.list(scope=Scope.RESOURCE_GROUP if resource_group else Scope.SUBSCRIPTION))
        result: dict = {}
        for entity in found:
            group = entity.resource_group or _group_of(entity.id) or resource_group
            result.setdefault(entity.name, []).append(ref(subscription_id, group, entity.name, entity.location))
        return result


def v2_workspace(name, location, resource_group, fields: dict):
    """The v2 ``Workspace`` for v1's ``Workspace.create`` arguments (existing resources by ARM id, as v1 took them)."""
    from azure.ai.ml.entities import CustomerManagedKey, IdentityConfiguration, ManagedIdentityConfiguration
    from azure.ai.ml.entities import Workspace as V2Workspace

    key = CustomerManagedKey(key_vault=fields["cmk_keyvault"], key_uri=fields["resource_cmk_uri"]) \
        if fields.get("cmk_keyvault") else None
    identity_id = fields.get("primary_user_assigned_identity")
    identity = IdentityConfiguration(type="system_assigned,user_assigned", user_assigned_identities=[
        ManagedIdentityConfiguration(resource_id=identity_id)]) if identity_id else None
    return V2Workspace(name=name, location=location, resource_group=resource_group, customer_managed_key=key,
                       primary_user_assigned_identity=identity_id, identity=identity,
                       display_name=fields.get("friendly_name"), tags=fields.get("tags"),
                       hbi_workspace=bool(fields.get("hbi_workspace")), storage_account=fields.get("storage_account"),
                       key_vault=fields.get("key_vault"), application_insights=fields.get("app_insights"),
                       container_registry=fields.get("container_registry"),
                       system_datastores_auth_mode=fields.get("system_datastores_auth_mode"))


def _group_of(arm_id) -> str | None:
    parts = str(arm_id or "").split("/")
    lowered = [p.lower() for p in parts]
    return parts[lowered.index("resourcegroups") + 1] if "resourcegroups" in lowered else None
