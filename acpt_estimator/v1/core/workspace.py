"""v1 ``Workspace``: found from config.json like v1; usable offline when local runs are forced."""

from __future__ import annotations

import json
import os
import re

from acpt_estimator.v1.core.datastore import Datastore
from acpt_estimator.exceptions import UserErrorException
from acpt_estimator.target import local_mode, offline_mode

_CONFIG_DIRS = (".azureml", "aml_config", "")
_CONFIG_FILES = ("config.json", "project.json")
_SCOPE = re.compile(r"/subscriptions/(?P<s>[^/]+)/resourceGroups/(?P<rg>[^/]+)/providers/[^/]+/workspaces/(?P<ws>[^/]+)",
                    re.IGNORECASE)
LOCAL_WORKSPACE_NAME = "local"


class Workspace:
    """A workspace reference. Nothing touches the network until a cloud job is submitted."""

    def __init__(self, subscription_id, resource_group, workspace_name, auth=None, _location=None,
                 _disable_service_check=False, _workspace_id=None, sku="basic", tags=None, _cloud="AzureCloud"):
        for param, value in (("subscription_id", subscription_id), ("resource_group", resource_group),
                             ("workspace_name", workspace_name)):
            if not value or not isinstance(value, str):
                raise UserErrorException(f"Workspace {param}={value!r} is missing; pass the value shown in the "
                                         "Azure ML studio's workspace overview (or use Workspace.from_config()).")
        self.subscription_id = subscription_id
        self.resource_group = resource_group
        self.name = workspace_name
        self.location = _location
        self.tags = dict(tags or {})
        self.sku = sku
        self._auth = auth
        self._cloud = _cloud
        self._client = None  # the MLClient, made on first cloud call (backends/azureml/client.py)
        self._credential = None
        self._services = None

    # ---- construction --------------------------------------------------------------------------------
    @classmethod
    def from_config(cls, path=None, auth=None, _logger=None, _file_name=None) -> "Workspace":
        """Walk up from ``path`` (default: cwd) through .azureml/, aml_config/ and the folder itself."""
        found = find_config(path, _file_name)
        if found is None:
            if local_mode():
                return cls._local()
            start = os.path.abspath(path or ".")
            raise UserErrorException(
                f"The workspace configuration file config.json, could not be found in {start} or its parent "
                "directories. Download it from the Azure ML studio (workspace overview > Download config.json) "
                "into this folder or .azureml/, or set ACPT_ESTIMATOR_TARGET=local to run jobs on this machine.")
        config_path, config = found
        sub, rg, name = _parse_config(config, config_path)
        return cls(sub, rg, name, auth=auth, _location=config.get("location"))

    @classmethod
    def get(cls, name, auth=None, subscription_id=None, resource_group=None, location=None, cloud="AzureCloud",
            id=None) -> "Workspace":
        if local_mode() and not (subscription_id and resource_group):
            return cls._local(name)
        return cls(subscription_id, resource_group, name, auth=auth, _location=location, _cloud=cloud)

    @classmethod
    def _local(cls, name: str = LOCAL_WORKSPACE_NAME) -> "Workspace":
        workspace = cls("local", "local", name or LOCAL_WORKSPACE_NAME)
        workspace._is_local = True
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

    # ---- v1 members ----------------------------------------------------------------------------------
    def get_default_datastore(self) -> Datastore:
        """The workspace's default datastore (``workspaceblobstore`` unless changed in the studio)."""
        if self._offline:
            return Datastore(self, "workspaceblobstore")
        from acpt_estimator.backends.azureml import assets

        return Datastore(self, assets.default_datastore_name(self))

    def _get_datastore(self, name: str) -> Datastore:
        """``Datastore.get(ws, name)``: checked against the workspace like v1, unless offline."""
        if not self._offline:
            from acpt_estimator.backends.azureml import assets

            assets.check_datastore(self, name)
        return Datastore(self, name)

    @property
    def datastores(self) -> dict:
        if self._offline:
            return {"workspaceblobstore": Datastore(self, "workspaceblobstore")}
        from acpt_estimator.backends.azureml import assets

        return {name: Datastore(self, name) for name in assets.datastore_names(self)}

    @property
    def compute_targets(self) -> dict:
        """v1: name -> ComputeTarget for every compute in the workspace (empty offline)."""
        from acpt_estimator.v1.core.compute.compute import ComputeTarget

        return {target.name: target for target in ComputeTarget.list(self)}

    def get_mlflow_tracking_uri(self) -> str:
        """The workspace's MLflow tracking URI (``azureml://...``), as azureml-mlflow reports it."""
        if self._offline:
            raise UserErrorException("get_mlflow_tracking_uri() needs an Azure workspace; local runs keep their "
                                     "metrics with the local run (run.get_metrics()).")
        from acpt_estimator.backends.azureml.client import azure_errors, ml_client

        with azure_errors(self, "read the workspace"):
            return ml_client(self).workspaces.get(self.name).mlflow_tracking_uri

    def write_config(self, path=None, file_name=None) -> None:
        folder = os.path.join(path or ".", ".azureml")
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, file_name or "config.json"), "w", encoding="utf-8") as handle:
            json.dump({"subscription_id": self.subscription_id, "resource_group": self.resource_group,
                       "workspace_name": self.name}, handle, indent=4)

    @property
    def arm_id(self) -> str:
        return (f"/subscriptions/{self.subscription_id}/resourceGroups/{self.resource_group}/providers/"
                f"Microsoft.MachineLearningServices/workspaces/{self.name}")

    def __repr__(self) -> str:
        return (f"Workspace.create(name='{self.name}', subscription_id='{self.subscription_id}', "
                f"resource_group='{self.resource_group}')")


def find_config(path=None, file_name=None):
    """(path, parsed dict) of the nearest config file walking upward, or None."""
    current = os.path.abspath(path or ".")
    names = (file_name,) if file_name else _CONFIG_FILES
    for _ in range(64):
        for folder in _CONFIG_DIRS:
            for name in names:
                candidate = os.path.join(current, folder, name)
                if os.path.isfile(candidate):
                    with open(candidate, encoding="utf-8") as handle:
                        try:
                            return candidate, json.load(handle)
                        except json.JSONDecodeError as err:
                            raise UserErrorException(f"{candidate} is not valid JSON ({err}); download it again "
                                                     "from the Azure ML studio.") from None
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent
    return None


def _parse_config(config: dict, config_path: str):
    if all(config.get(k) for k in ("subscription_id", "resource_group", "workspace_name")):
        return config["subscription_id"], config["resource_group"], config["workspace_name"]
    match = _SCOPE.search(config.get("Scope") or config.get("scope") or "")
    if match:
        return match["s"], match["rg"], match["ws"]
    raise UserErrorException(
        f"{config_path} must contain subscription_id, resource_group and workspace_name (or a Scope ARM id). "
        "Download a fresh config.json from the Azure ML studio's workspace overview.")
