"""An Azure ML workspace's services (``acpt_estimator.services``): experiments, models (v2 assets) and secrets (its
Key Vault), through the workspace's MLClient; azure imported on use."""

from __future__ import annotations

import os

from ...exceptions import UserErrorException, WebserviceException
from ...refusal import refuse
from .model_records import _FRAMEWORK_PROPS, model_record


class CloudServices:
    def __init__(self, workspace):
        from .compute import CloudCompute
        from .datasets import CloudDatasets
        from .datastore_registry import CloudDatastores
        from .environments import CloudEnvironments
        from .publishing_services import CloudPipelineEndpoints, CloudPublishedPipelines, CloudSchedules
        from .workspaces import CloudWorkspace

        self.compute = CloudCompute(workspace)
        self.datasets = CloudDatasets(workspace)
        self.datastores = CloudDatastores(workspace)
        self.environments = CloudEnvironments(workspace)
        self.experiments = CloudExperiments(workspace)
        self.models = CloudModels(workspace)
        self.pipeline_endpoints = CloudPipelineEndpoints(workspace)
        self.published_pipelines = CloudPublishedPipelines(workspace)
        self.schedules = CloudSchedules(workspace)
        self.secrets = CloudSecrets(workspace)
        self.workspace = CloudWorkspace(workspace)


class CloudExperiments:
    def __init__(self, workspace):
        self.workspace = workspace

    def start_logging(self, experiment, display_name=None):
        """An MLflow run in the workspace (run history records it like a job)."""
        from .interactive import start

        return start(experiment, display_name=display_name)

    def portal_url(self, experiment) -> str:
        ws = self.workspace
        return (f"https://ml.azure.com/experiments/{experiment.name}?wsid=/subscriptions/{ws.subscription_id}/"
                f"resourcegroups/{ws.resource_group}/workspaces/{ws.name}")

    def tags(self, name: str):
        return None  # the workspace keeps experiment tags in its MLflow tracking, which is not written here


class CloudModels:
    """v2 model assets through the workspace's MLClient."""

    def __init__(self, workspace):
        self.workspace = workspace

    def _client(self):
        from .client import ml_client

        return ml_client(self.workspace)

    def _errors(self, action):
        from .client import azure_errors

        return azure_errors(self.workspace, action)

    def get(self, name, version=None) -> dict:
        from azure.core.exceptions import ResourceNotFoundError

        try:
            with self._errors(f"get model {name!r}"):
                models = self._client().models
                entity = models.get(name, version=str(version)) if version else models.get(name, label="latest")
        except ResourceNotFoundError:
            raise WebserviceException(
                f"ModelNotFound: Model with name {name}{f', version {version}' if version else ''} not found in "
                f"provided workspace {self.workspace.name!r}; check Model.list(ws, name={name!r}).") from None
        return model_record(entity)

    def path_here(self, name, version=None):
        return None  # a workspace model is downloaded to be on this machine

    def list(self, name=None) -> list:
        from .client import list_or_empty

        models = self._client().models
        names = [name] if name else [m.name for m in list_or_empty(self.workspace, "list models", models.list)]
        return [model_record(m) for n in names
                for m in list_or_empty(self.workspace, f"list the versions of model {n!r}",
                                       lambda n=n: models.list(name=n))]

    def register(self, model_path, model_name, tags, properties, description, model_framework,
                 model_framework_version, datasets) -> dict:
        from azure.ai.ml.entities import Model as V2Model

        props = {str(k): str(v) for k, v in (properties or {}).items()}
        props.update({k: str(v) for k, v in zip(_FRAMEWORK_PROPS, (model_framework, model_framework_version)) if v})
        model = V2Model(name=model_name, path=model_path, type="custom_model", description=description,
                        tags={str(k): str(v) for k, v in (tags or {}).items()} or None, properties=props or None)
        with self._errors(f"register model {model_name!r}"):
            return model_record(self._client().models.create_or_update(model))

    def update(self, record: dict) -> None:
        with self._errors(f"update model {record['name']!r}"):
            entity = self._client().models.get(record["name"], version=str(record["version"]))
            entity.tags = {str(k): str(v) for k, v in record["tags"].items()}
            entity.properties = {str(k): str(v) for k, v in record["properties"].items()}
            entity.description = record["description"]
            self._client().models.create_or_update(entity)

    def delete(self, record: dict) -> None:
        from . import sdk

        with self._errors(f"delete model {record['name']!r}"):
            sdk.delete_model_version(self._client(), self.workspace, record["name"], record["version"])

    def download(self, record: dict, target_dir: str, exist_ok: bool) -> str:
        """v1's layout: the model's files straight in ``target_dir`` (v2 adds a ``<name>/`` level, removed here)."""
        import shutil
        import tempfile

        os.makedirs(target_dir, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=target_dir, prefix=".download-") as staging:
            with self._errors(f"download model {record['name']!r}"):
                self._client().models.download(record["name"], str(record["version"]), download_path=staging)
            root = os.path.join(staging, record["name"])
            entries = sorted(os.listdir(root))
            clashes = [e for e in entries if os.path.exists(os.path.join(target_dir, e))]
            if clashes and not exist_ok:
                raise UserErrorException(f"File {os.path.join(target_dir, clashes[0])} already exists. Pass "
                                         "exist_ok=True to overwrite it.")
            for entry in entries:
                dest = os.path.join(target_dir, entry)
                if os.path.isdir(dest):
                    shutil.rmtree(dest)
                shutil.move(os.path.join(root, entry), dest)
        return os.path.join(target_dir, entries[0]) if len(entries) == 1 else target_dir


class CloudSecrets:
    """The workspace's Key Vault through azure-keyvault-secrets, with the workspace's credential."""

    def __init__(self, workspace):
        self.workspace = workspace
        self._client = None

    def _secrets(self):
        """The SecretClient, made on first use."""
        if self._client is None:
            try:
                from azure.keyvault.secrets import SecretClient
            except ImportError:
                refuse("Keyvault (cloud workspace)", "azure-keyvault-secrets is not installed, and the workspace's "
                       "secrets live in its Azure Key Vault.", "pip install azure-keyvault-secrets (then retry), or "
                       "`az keyvault secret set --vault-name <the workspace's key vault> --name ... --value ...`")
            from .client import azure_errors, ml_client

            with azure_errors(self.workspace, "read the workspace's key vault"):
                vault_id = ml_client(self.workspace).workspaces.get(self.workspace.name).key_vault
            vault = str(vault_id).rstrip("/").split("/")[-1]
            self._client = SecretClient(f"https://{vault}.{_vault_suffix(self.workspace)}", self.workspace._credential)
        return self._client

    def set(self, name: str, value: str, content_type: str) -> None:
        self._secrets().set_secret(name, value, content_type=content_type)

    def read(self, name: str):
        from azure.core.exceptions import ResourceNotFoundError

        try:
            secret = self._secrets().get_secret(name)
        except ResourceNotFoundError:
            return None
        return {"value": secret.value, "content_type": secret.properties.content_type}

    def names(self) -> list:
        return sorted(p.name for p in self._secrets().list_properties_of_secrets())

    def delete(self, name: str) -> bool:
        self._secrets().begin_delete_secret(name).wait()
        return True


def _vault_suffix(workspace) -> str:
    return {"AzureChinaCloud": "vault.azure.cn", "AzureUSGovernment": "vault.usgovcloudapi.net"}.get(
        getattr(workspace, "_cloud", None), "vault.azure.net")
