"""Cloud side of v1 ``Workspace``: the workspace resource in v1's ``get_details()`` shape, create, list, update."""

from __future__ import annotations

from acpt_estimator.exceptions import UserErrorException, WorkspaceException

# v2 REST property (camelCase) -> v1 get_details() key; v1 printed these from the same ARM resource.
_DETAIL_KEYS = (("workspaceId", "workspaceid"), ("description", "description"), ("friendlyName", "friendlyName"),
                ("creationTime", "creationTime"), ("containerRegistry", "containerRegistry"),
                ("keyVault", "keyVault"), ("applicationInsights", "applicationInsights"),
                ("storageAccount", "storageAccount"), ("hbiWorkspace", "hbiWorkspace"),
                ("provisioningState", "provisioningState"), ("discoveryUrl", "discoveryUrl"),
                ("notebookInfo", "notebookInfo"), ("v1LegacyMode", "v1LegacyMode"),
                ("imageBuildCompute", "imageBuildCompute"), ("mlFlowTrackingUri", "mlFlowTrackingUri"),
                ("publicNetworkAccess", "publicNetworkAccess"))


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


def workspace_resource(workspace) -> dict:
    """The workspace's ARM resource as JSON (v2's entity drops the sku and creation time that v1 reports)."""
    from acpt_estimator.backends.azureml.client import azure_errors, ml_client

    from acpt_estimator.backends.azureml import sdk

    with azure_errors(workspace, "read the workspace"):
        return sdk.workspace_resource(ml_client(workspace), workspace.resource_group, workspace.name)


def _scoped_client(auth, subscription_id, resource_group, cloud="AzureCloud"):
    """An MLClient for a subscription/resource group (no workspace yet): Workspace.create and Workspace.list."""
    from azure.ai.ml import MLClient

    from acpt_estimator.v1.core.authentication import to_credential

    extra = {} if cloud in (None, "AzureCloud") else {"cloud": cloud}
    return MLClient(to_credential(auth), subscription_id, resource_group, enable_telemetry=False,
                    show_progress=False, **extra)


def create(cls, name, auth, subscription_id, resource_group, location, exist_ok, show_output, fields: dict):
    """v1 ``Workspace.create`` over v2: get it when ``exist_ok``, else create it (``begin_create``) and wait."""
    from azure.core.exceptions import ResourceNotFoundError

    for param, value in (("subscription_id", subscription_id), ("resource_group", resource_group)):
        if not value:
            raise UserErrorException(f"Workspace.create({name!r}, {param}=None): pass the Azure {param} to create "
                                     "the workspace in (or set ACPT_ESTIMATOR_TARGET=local to run jobs locally).")
    probe = cls(subscription_id, resource_group, name, auth=auth, _location=location)
    client = _scoped_client(auth, subscription_id, resource_group, probe._cloud)
    from acpt_estimator.backends.azureml.client import azure_errors

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
    return cls(subscription_id, resource_group, name, auth=auth)


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


def list_workspaces(cls, subscription_id, auth, resource_group) -> dict:
    """v1 ``Workspace.list``: name -> [Workspace] in a resource group (or the whole subscription)."""
    from azure.ai.ml.constants import Scope

    client = _scoped_client(auth, subscription_id, resource_group or "-")
    probe = cls(subscription_id, resource_group or "-", "-", auth=auth)
    from acpt_estimator.backends.azureml.client import azure_errors

    with azure_errors(probe, "list workspaces"):
        found = list(client.workspaces.list(scope=Scope.RESOURCE_GROUP if resource_group else Scope.SUBSCRIPTION))
    result: dict = {}
    for entity in found:
        group = entity.resource_group or _group_of(entity.id) or resource_group
        result.setdefault(entity.name, []).append(cls(subscription_id, group, entity.name, auth=auth,
                                                      _location=entity.location))
    return result


def _group_of(arm_id) -> str | None:
    parts = str(arm_id or "").split("/")
    lowered = [p.lower() for p in parts]
    return parts[lowered.index("resourcegroups") + 1] if "resourcegroups" in lowered else None


def update(workspace, friendly_name, description, tags, image_build_compute) -> None:
    """v1 ``ws.update(...)`` through v2 ``begin_update`` of the fields v2 still has."""
    from acpt_estimator.backends.azureml.client import azure_errors, ml_client

    client = ml_client(workspace)
    with azure_errors(workspace, "update the workspace"):
        entity = client.workspaces.get(workspace.name)
        if friendly_name is not None:
            entity.display_name = friendly_name
        if description is not None:
            entity.description = description
        if tags is not None:
            entity.tags = dict(tags)
        if image_build_compute is not None:
            entity.image_build_compute = image_build_compute
        client.workspaces.begin_update(entity).result()


def get_run(workspace, run_id):
    """A run by id: the Run owner's ``Run.get`` when there is one, else the backend that has it."""
    from acpt_estimator.v1.core import run as run_module
    from acpt_estimator.v1.core.experiment import Experiment

    getter = getattr(run_module.Run, "get", None)
    if getter is not None:
        return getter(workspace, run_id)
    if workspace._offline:
        from acpt_estimator.backends.local import get_run as local_run
        from acpt_estimator.v1.core._run_handle import wrap

        return wrap(local_run(run_id))
    from azure.core.exceptions import ResourceNotFoundError

    from acpt_estimator.backends.azureml.run import CloudRun

    from acpt_estimator.backends.azureml.client import azure_errors, ml_client

    try:
        with azure_errors(workspace, f"look up run {run_id!r}"):
            job = ml_client(workspace).jobs.get(run_id)
    except ResourceNotFoundError:
        raise UserErrorException(f"ws.get_run({run_id!r}): no run with that id in workspace {workspace.name!r}; "
                                 "copy the id from run.id or the studio's run page.") from None
    from acpt_estimator.v1.core._run_handle import wrap

    experiment = Experiment(workspace, job.experiment_name, _skip_name_validation=True)
    return wrap(CloudRun(experiment, job.name, job=job), experiment)


def experiments(workspace) -> dict:
    """v1 ``ws.experiments``: ``Experiment.list`` when the Run owner has it, else the experiments of the runs."""
    from acpt_estimator.v1.core.experiment import Experiment

    if hasattr(Experiment, "list"):
        return {experiment.name: experiment for experiment in Experiment.list(workspace)}
    if workspace._offline:
        from acpt_estimator.backends.local.store import all_run_records

        names = {r.get("experimentName") for r in all_run_records()}
    else:
        from acpt_estimator.backends.azureml.client import azure_errors, ml_client

        with azure_errors(workspace, "list experiments"):
            names = {getattr(j, "experiment_name", None) for j in ml_client(workspace).jobs.list()}
    return {name: Experiment(workspace, name, _skip_name_validation=True) for name in sorted(n for n in names if n)}
