"""v1 ``Workspace``: found from config.json like v1; usable offline when local runs are forced."""

from __future__ import annotations

import json
import os
import re

from acpt_estimator.backends.local.workspaces import LOCAL_WORKSPACE_NAME, local_ref
from acpt_estimator.exceptions import UserErrorException
from acpt_estimator.names import check_workspace
from acpt_estimator.services import workspaces
from acpt_estimator.target import offline_mode
from acpt_estimator.v1._refusal import refused
from acpt_estimator.v1.core._workspace_config import _parse_config, find_config
from acpt_estimator.v1.core.compute import AmlCompute, ComputeTarget
from acpt_estimator._lazy import lazy_names

WORKSPACE_DEFAULT_BLOB_STORE_NAME = "workspaceblobstore"  # v1's name of the default datastore
_NETWORK_WHY = "workspace networking is managed outside training code."
_NETWORK_V2 = "azure.ai.ml.entities.PrivateEndpoint with ml_client.workspaces.begin_update, or the Azure portal"
_CONNECTION_WHY = "v1's workspace connections became v2 connection objects."
_DEPLOY_WHY = "acpt-estimator runs v1 training code, not deployment."


class Workspace:
    """A workspace reference. Nothing touches the network until a cloud member needs the service."""

    DEFAULT_CPU_CLUSTER_NAME = "cpu-cluster"
    DEFAULT_GPU_CLUSTER_NAME = "gpu-cluster"
    DEFAULT_CPU_CLUSTER_CONFIGURATION = AmlCompute.provisioning_configuration(
        vm_size="STANDARD_DS2_V2", min_nodes=0, max_nodes=2, vm_priority="dedicated")
    DEFAULT_GPU_CLUSTER_CONFIGURATION = AmlCompute.provisioning_configuration(
        vm_size="STANDARD_NC6", min_nodes=0, max_nodes=2, vm_priority="dedicated")

    def __init__(self, subscription_id, resource_group, workspace_name, auth=None, _location=None,
                 _disable_service_check=False, _workspace_id=None, sku="basic", tags=None, _cloud="AzureCloud"):
        check_workspace(subscription_id, resource_group, workspace_name)
        self._subscription_id = subscription_id
        self._resource_group = resource_group
        self._name = workspace_name
        self._location = _location
        self._tags = None if tags is None else dict(tags)
        self._sku = sku
        self._auth = auth
        self._cloud = _cloud
        self._client = None  # the MLClient, made on first cloud call (backends/azureml/client.py)
        self._credential = None
        self._services = None
        self._resource = None  # the workspace's ARM resource, read on first need

    # ---- construction --------------------------------------------------------------------------------
    @staticmethod
    def from_config(path=None, auth=None, _logger=None, _file_name=None) -> "Workspace":
        """Walk up from ``path`` (default: cwd) through .azureml/, aml_config/ and the folder itself."""
        found = find_config(path, _file_name)
        if found is None:  # a local workspace while local runs are forced, else v1's error
            return Workspace._from_ref(workspaces().missing_config(os.path.abspath(path or ".")), auth)
        config_path, config = found
        sub, rg, name = _parse_config(config, config_path)
        return Workspace(sub, rg, name, auth=auth, _location=config.get("location"))

    @staticmethod
    def get(name, auth=None, subscription_id=None, resource_group=None, location=None, cloud="AzureCloud",
            id=None) -> "Workspace":
        if id:  # v1: the workspace's ARM id names subscription, resource group and workspace
            match = re.fullmatch(r"/subscriptions/([^/]+)/resourceGroups/([^/]+)/providers/"
                                 r"Microsoft\.MachineLearningServices/workspaces/([^/]+)/?", str(id), re.IGNORECASE)
            if match is None:
                raise UserErrorException(
                    f"Workspace.get(id={id!r}): pass the workspace's ARM id, /subscriptions/<id>/resourceGroups/<rg>/"
                    "providers/Microsoft.MachineLearningServices/workspaces/<name>.")
            subscription_id, resource_group, name = (subscription_id or match[1], resource_group or match[2],
                                                      name or match[3])
        return Workspace._from_ref(workspaces().get(name, subscription_id, resource_group, location), auth, cloud)

    @staticmethod
    def create(name, auth=None, subscription_id=None, resource_group=None, location=None, create_resource_group=True,
               sku="basic", tags=None, friendly_name=None, storage_account=None, key_vault=None, app_insights=None,
               container_registry=None, adb_workspace=None, primary_user_assigned_identity=None, cmk_keyvault=None,
               resource_cmk_uri=None, hbi_workspace=False, default_cpu_compute_target=None,
               default_gpu_compute_target=None, private_endpoint_config=None, private_endpoint_auto_approval=True,
               exist_ok=False, show_output=True, user_assigned_identity_for_cmk_encryption=None,
               system_datastores_auth_mode="accessKey", v1_legacy_mode=None) -> "Workspace":
        """v2 workspace get (``exist_ok``) or create; with local runs forced, the local workspace. Settings v2
        cannot apply are refused before anything is created (v1._params); the key and identity ones are sent."""
        from acpt_estimator.v1 import _params

        _params.check("Workspace.create", adb_workspace=adb_workspace, private_endpoint_config=private_endpoint_config,
                      private_endpoint_auto_approval=private_endpoint_auto_approval,
                      user_assigned_identity_for_cmk_encryption=user_assigned_identity_for_cmk_encryption,
                      default_cpu_compute_target=default_cpu_compute_target,
                      default_gpu_compute_target=default_gpu_compute_target, v1_legacy_mode=v1_legacy_mode, sku=sku,
                      create_resource_group=create_resource_group)
        if bool(cmk_keyvault) != bool(resource_cmk_uri):
            raise UserErrorException(
                f"Workspace.create(cmk_keyvault={cmk_keyvault!r}, resource_cmk_uri={resource_cmk_uri!r}): a "
                "customer-managed key needs both, the key vault's ARM id and the key's URI.")
        fields = {"friendly_name": friendly_name, "tags": tags, "hbi_workspace": hbi_workspace,
                  "cmk_keyvault": cmk_keyvault, "resource_cmk_uri": resource_cmk_uri,
                  "primary_user_assigned_identity": primary_user_assigned_identity,
                  "storage_account": storage_account, "key_vault": key_vault, "app_insights": app_insights,
                  "container_registry": container_registry,
                  "system_datastores_auth_mode": system_datastores_auth_mode}
        return Workspace._from_ref(workspaces().create(name, auth, subscription_id, resource_group, location, exist_ok,
                                                       show_output, fields), auth)

    @staticmethod
    def list(subscription_id, auth=None, resource_group=None) -> dict:
        """v1: workspace name -> [Workspace]; with local runs forced, the local workspace."""
        return {name: [Workspace._from_ref(ref, auth) for ref in refs]
                for name, refs in workspaces().list(subscription_id, auth, resource_group).items()}

    @classmethod
    def _local(cls, name: str = LOCAL_WORKSPACE_NAME) -> "Workspace":
        """A workspace for local runs only."""
        return cls._from_ref(local_ref(name))

    @classmethod
    def _from_ref(cls, ref: dict, auth=None, cloud="AzureCloud") -> "Workspace":
        """The workspace a directory reference (``acpt_estimator.services.workspaces``) or a run record names."""
        workspace = cls(ref["subscription_id"], ref["resource_group"], ref["name"], auth=auth,
                        _location=ref.get("location"), _cloud=cloud)
        workspace._is_local = bool(ref.get("is_local"))  # the workspace's own state, which the services read
        return workspace

    _is_local = False

    @property
    def is_local(self) -> bool:
        """A workspace made for local runs only (no config.json, local runs forced)."""
        return self._is_local

    @property
    def _offline(self) -> bool:
        """No Azure calls: a local-only workspace, local runs forced, or submissions captured by ``convert``."""
        return self._is_local or offline_mode()

    # ---- identity and details ------------------------------------------------------------------------
    @property
    def name(self) -> str:
        return self._name

    @property
    def subscription_id(self) -> str:
        return self._subscription_id

    @property
    def resource_group(self) -> str:
        return self._resource_group

    def _service(self):
        """This workspace's own service: made here offline, the ARM resource in Azure (chosen on each call: forcing
        local runs may be switched on for a workspace made earlier)."""
        from acpt_estimator.services import services_for

        return services_for(self).workspace

    def _details(self) -> dict:
        service = self._service()
        if self._resource is None or self._resource[0] is not type(service):  # read once per kind of service
            self._resource = (type(service), service.details())
        return self._resource[1]

    @property
    def location(self) -> str:
        """The Azure region (read from the service when config.json had none); ``'local'`` offline."""
        return self._location or self._details()["location"]

    @property
    def tags(self) -> dict:
        return dict(self._tags) if self._tags is not None else dict(self._details().get("tags") or {})

    @property
    def sku(self) -> str:
        return self._details().get("sku") or self._sku

    @property
    def discovery_url(self):
        return self._details().get("discoveryUrl")

    def get_details(self) -> dict:
        """v1's details dict (id, name, location, type, tags, sku, workspaceid, friendlyName, keyVault, ...)."""
        return dict(self._details())

    def update(self, friendly_name=None, description=None, tags=None, image_build_compute=None,
               service_managed_resources_settings=None, primary_user_assigned_identity=None,
               allow_public_access_when_behind_vnet=None, v1_legacy_mode=None) -> None:
        """v2 ``begin_update`` of display name, description, tags and image build compute."""
        from acpt_estimator.v1 import _params

        _params.check("Workspace.update", service_managed_resources_settings=service_managed_resources_settings,
                      primary_user_assigned_identity=primary_user_assigned_identity,
                      allow_public_access_when_behind_vnet=allow_public_access_when_behind_vnet,
                      v1_legacy_mode=v1_legacy_mode)
        self._service().update(friendly_name, description, tags, image_build_compute)
        self._resource = None
        if tags is not None:
            self._tags = dict(tags)

    # ---- assets --------------------------------------------------------------------------------------
    # (Datastore is imported where used: it brings the v1 data classes, ~10 ms a driver would pay for nothing.)
    def get_default_datastore(self) -> "Datastore":
        """The workspace's default datastore (``workspaceblobstore`` unless changed)."""
        from acpt_estimator.v1.core.datastore import Datastore

        return Datastore.get_default(self)

    def set_default_datastore(self, name) -> None:
        from acpt_estimator.v1.core.datastore import Datastore

        Datastore.get(self, name).set_as_default()

    @property
    def datastores(self) -> dict:
        from acpt_estimator.v1.core.datastore import Datastore

        return {store.name: store for store in Datastore._list(self)}

    @property
    def compute_targets(self) -> dict:
        """v1: name -> ComputeTarget. With local runs forced any name gives a stand-in, like ComputeTarget(ws, n)."""
        from acpt_estimator.services import services_for

        found = {target.name: target for target in ComputeTarget.list(self)}
        return _StandIns(self, found) if services_for(self).compute.stand_ins else found

    def get_default_compute_target(self, type) -> ComputeTarget | None:
        """v1 (deprecated): the ``cpu-cluster``/``gpu-cluster`` compute for ``type`` 'CPU'/'GPU', if present."""
        names = {"CPU": self.DEFAULT_CPU_CLUSTER_NAME, "GPU": self.DEFAULT_GPU_CLUSTER_NAME}
        if str(type).upper() not in names:
            raise UserErrorException(f"get_default_compute_target(type={type!r}): use 'CPU' or 'GPU'.")
        return self.compute_targets.get(names[str(type).upper()])

    @property
    def models(self) -> dict:
        """v1: name -> the latest version of each registered model."""
        from acpt_estimator.v1.core.model import Model

        return {model.name: model for model in Model.list(self, latest=True)}

    @property
    def datasets(self) -> dict:
        """v1: name -> the latest version of each registered dataset."""
        from acpt_estimator.v1.core.dataset import Dataset

        return dict(Dataset.get_all(self))

    @property
    def environments(self) -> dict:
        """v1: name -> the latest version of each registered environment; curated names are found too."""
        from acpt_estimator.v1.core.environment import Environment

        return Environment.list(self)

    @property
    def experiments(self) -> dict:
        """v1: name -> Experiment, for every experiment with runs."""
        from acpt_estimator.v1.core.experiment import Experiment

        return {experiment.name: experiment for experiment in Experiment.list(self)}

    def get_run(self, run_id):
        from acpt_estimator.v1.core.run import Run

        return Run.get(self, run_id)

    def get_default_keyvault(self):
        from acpt_estimator.v1.core.keyvault import Keyvault

        return Keyvault(self)

    def get_mlflow_tracking_uri(self, _with_auth=False) -> str:
        """The workspace's MLflow tracking URI (``azureml://...``); offline the local store's MLflow SQLite store,
        with every finished local run copied in (a run started through MLflow is then a run of its experiment)."""
        return self._service().mlflow_tracking_uri(self._details())

    def sync_keys(self, no_wait=False) -> None:
        """v2 ``begin_sync_keys``; offline there are no storage keys to sync."""
        return self._service().sync_keys(no_wait)

    def write_config(self, path=None, file_name=None) -> None:
        """v1: ``<path>/.azureml/<file_name>`` (default ``./.azureml/config.json``) for ``from_config``."""
        file_name = file_name or "config.json"
        if not isinstance(file_name, str) or os.path.basename(file_name) != file_name or file_name in (".", ".."):
            raise UserErrorException(f"write_config(file_name={file_name!r}): pass a plain file name such as "
                                     "'config.json'; use path= for the folder.")
        folder = os.path.join(path or ".", ".azureml")
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, file_name), "w", encoding="utf-8") as handle:
            json.dump({"subscription_id": self.subscription_id, "resource_group": self.resource_group,
                       "workspace_name": self.name}, handle, indent=4)

    @property
    def arm_id(self) -> str:
        return (f"/subscriptions/{self.subscription_id}/resourceGroups/{self.resource_group}/providers/"
                f"Microsoft.MachineLearningServices/workspaces/{self.name}")

    # ---- v1 members with no equivalent here ------------------------------------------------------------
    delete = refused("Workspace.delete", "deleting a workspace is an administrative action, not training code.",
                     "ml_client.workspaces.begin_delete(name, delete_dependent_resources=...) or "
                     "`az ml workspace delete`")
    setup = refused("Workspace.setup", "v1's interactive setup was removed.",
                    "Workspace.create(..., exist_ok=True) or `az ml workspace create`")
    list_keys = refused("Workspace.list_keys", "storage and registry keys are not handed to training code here.",
                        "ml_client.workspaces.get_keys(name) or `az ml workspace list-keys`")
    update_dependencies = refused("Workspace.update_dependencies", "v1 swapped the container registry in place.",
                                  "ml_client.workspaces.begin_update(Workspace(..., container_registry=...))")
    diagnose_workspace = refused("Workspace.diagnose_workspace", "diagnosis is a v2 workspace operation.",
                                 "ml_client.workspaces.begin_diagnose(name) or `az ml workspace diagnose`")
    add_private_endpoint = refused("Workspace.add_private_endpoint", _NETWORK_WHY, _NETWORK_V2)
    delete_private_endpoint_connection = refused("Workspace.delete_private_endpoint_connection", _NETWORK_WHY,
                                                 _NETWORK_V2)
    private_endpoints = refused("Workspace.private_endpoints", _NETWORK_WHY, _NETWORK_V2, kind="property")
    get_connection = refused("Workspace.get_connection", _CONNECTION_WHY, "ml_client.connections.get(name)")
    list_connections = refused("Workspace.list_connections", _CONNECTION_WHY, "ml_client.connections.list()")
    set_connection = refused("Workspace.set_connection", _CONNECTION_WHY,
                             "ml_client.connections.create_or_update(WorkspaceConnection(...))")
    delete_connection = refused("Workspace.delete_connection", _CONNECTION_WHY, "ml_client.connections.delete(name)")
    images = refused("Workspace.images", _DEPLOY_WHY, "ml_client.environments and managed online endpoints",
                     kind="property")
    webservices = refused("Workspace.webservices", _DEPLOY_WHY, "ml_client.online_endpoints.list()", kind="property")
    linked_services = refused("Workspace.linked_services", "Synapse linked services served v1 pipelines.",
                              "ml_client.compute.list() (attached SynapseSparkCompute)", kind="property")
    service_context = refused("Workspace.service_context", "it was v1's internal REST client context.",
                              "MLClient(credential, subscription_id, resource_group, workspace_name)",
                              kind="property")

    def __repr__(self) -> str:
        return (f"Workspace.create(name='{self.name}', subscription_id='{self.subscription_id}', "
                f"resource_group='{self.resource_group}')")


class _StandIns(dict):
    """``ws.compute_targets`` with local runs forced: any name gives the same stand-in ``ComputeTarget(ws, name)``
    does, so ``ws.compute_targets['cpu-cluster']`` works before a local job."""

    def __init__(self, workspace, found):
        super().__init__(found)
        self._workspace = workspace

    def __missing__(self, name):
        return ComputeTarget(self._workspace, name)

    def get(self, name, default=None):
        return self[name] if isinstance(name, str) and name else default


# v1 names this module also exported, defined elsewhere: resolved on first use (v1-importable.json).
__getattr__, __dir__ = lazy_names(__name__, {
    **dict.fromkeys(["ProjectSystemException", "UserErrorException", "WorkspaceException"],
        "acpt_estimator.exceptions"),
    **dict.fromkeys(["Image", "Webservice"], "acpt_estimator.unsupported"),
    "InteractiveLoginAuthentication": "acpt_estimator.v1.core.authentication",
    "AmlCompute": "acpt_estimator.v1.core.compute.amlcompute",
    "ComputeTarget": "acpt_estimator.v1.core.compute.compute",
    "Dataset": "acpt_estimator.v1.core.dataset",
    "Keyvault": "acpt_estimator.v1.core.keyvault",
    "LinkedService": "acpt_estimator.v1.core.linked_service",
    "Model": "acpt_estimator.v1.core.model",
})
