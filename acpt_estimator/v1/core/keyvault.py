"""v1 ``azureml.core.keyvault``: workspace secrets; locally files readable only by you, in the cloud the workspace's
key vault (through azure-keyvault-secrets). Secret values are never printed or logged."""

from __future__ import annotations

import enum
import json
import os
import re

from acpt_estimator.exceptions import UserErrorException
from acpt_estimator.v1._refusal import refuse

_NAME = re.compile(r"^[0-9a-zA-Z-]{1,127}$")


class KeyVaultContentType(str, enum.Enum):
    """v1: the content type stored with a secret."""

    not_provided = "application/NotProvided"
    plain_text = "text/plain"
    json = "application/json"


def _check_name(name) -> str:
    if not isinstance(name, str) or not _NAME.match(name):
        raise UserErrorException(
            f"Secret name={name!r} is not valid: use 1-127 letters, digits and dashes (Key Vault's rule), "
            "e.g. 'storage-key'.")
    return name


class Keyvault:
    """``ws.get_default_keyvault()`` / ``Keyvault(ws)``: set, get, list and delete the workspace's secrets."""

    def __init__(self, workspace):
        self.workspace = workspace
        self._client = None

    # ---- v1 members ----------------------------------------------------------------------------------
    def set_secret(self, name, value, content_type=KeyVaultContentType.not_provided) -> None:
        _check_name(name)
        if not isinstance(value, str):
            raise UserErrorException(f"set_secret({name!r}, value=<{type(value).__name__}>): the value must be a "
                                     "string; serialize it first (e.g. json.dumps).")
        content = getattr(content_type, "value", content_type)
        if self._local:
            _write_private(self._path(name), {"value": value, "content_type": content})
        else:
            self._secrets().set_secret(name, value, content_type=content)

    def set_secrets(self, secrets_batch) -> None:
        if not isinstance(secrets_batch, dict):
            raise UserErrorException("set_secrets(secrets_batch=...) takes a dict of secret names to values.")
        for name, value in secrets_batch.items():
            self.set_secret(name, value)

    def get_secret(self, name) -> str:
        return self._read(name)["value"]

    def get_secrets(self, secrets) -> dict:
        if isinstance(secrets, str):
            secrets = [secrets]
        return {name: self.get_secret(name) for name in secrets}

    def get_secret_content_type(self, name) -> str:
        return self._read(name)["content_type"]

    def list_secrets(self) -> list:
        """v1: ``[{'name': ...}, ...]``; values are not listed."""
        if self._local:
            folder = self._folder()
            names = sorted(n for n in os.listdir(folder) if _NAME.match(n)) if os.path.isdir(folder) else []
        else:
            names = sorted(p.name for p in self._secrets().list_properties_of_secrets())
        return [{"name": name} for name in names]

    def delete_secret(self, name) -> None:
        _check_name(name)
        if self._local:
            try:
                os.remove(self._path(name))
            except FileNotFoundError:
                raise self._missing(name) from None
        else:
            self._secrets().begin_delete_secret(name).wait()

    def delete_secrets(self, secrets) -> None:
        for name in ([secrets] if isinstance(secrets, str) else secrets):
            self.delete_secret(name)

    # ---- storage -------------------------------------------------------------------------------------
    @property
    def _local(self) -> bool:
        return getattr(self.workspace, "_offline", True)

    def _folder(self) -> str:
        from acpt_estimator.backends.local.store import home

        return os.path.join(home(), "secrets")

    def _path(self, name: str) -> str:
        return os.path.join(self._folder(), _check_name(name))  # the name rule keeps it inside the folder

    def _missing(self, name) -> UserErrorException:
        return UserErrorException(f"Secret {name!r} is not in the workspace key vault; set it with "
                                  f"ws.get_default_keyvault().set_secret({name!r}, value) or check list_secrets().")

    def _read(self, name) -> dict:
        _check_name(name)
        if self._local:
            try:
                with open(self._path(name), encoding="utf-8") as handle:
                    return json.load(handle)
            except FileNotFoundError:
                raise self._missing(name) from None
        from azure.core.exceptions import ResourceNotFoundError

        try:
            secret = self._secrets().get_secret(name)
        except ResourceNotFoundError:
            raise self._missing(name) from None
        return {"value": secret.value, "content_type": secret.properties.content_type}

    def _secrets(self):
        """The workspace key vault's SecretClient, made on first use with the workspace's credential."""
        if self._client is None:
            try:
                from azure.keyvault.secrets import SecretClient
            except ImportError:
                refuse("Keyvault (cloud workspace)", "azure-keyvault-secrets is not installed, and the workspace's "
                       "secrets live in its Azure Key Vault.", "pip install azure-keyvault-secrets (then retry), or "
                       "`az keyvault secret set --vault-name <the workspace's key vault> --name ... --value ...`")
            from acpt_estimator.backends.azureml.client import azure_errors, ml_client

            with azure_errors(self.workspace, "read the workspace's key vault"):
                vault_id = ml_client(self.workspace).workspaces.get(self.workspace.name).key_vault
            vault = str(vault_id).rstrip("/").split("/")[-1]
            self._client = SecretClient(f"https://{vault}.{_vault_suffix(self.workspace)}", self.workspace._credential)
        return self._client

    def __repr__(self) -> str:
        return f"Keyvault(workspace={getattr(self.workspace, 'name', None)!r})"


def _vault_suffix(workspace) -> str:
    return {"AzureChinaCloud": "vault.azure.cn", "AzureUSGovernment": "vault.usgovcloudapi.net"}.get(
        getattr(workspace, "_cloud", None), "vault.azure.net")


def _write_private(path: str, data: dict) -> None:
    """Write via a 0600 temporary file and rename, in a 0700 folder: only the owner can read secrets."""
    folder = os.path.dirname(path)
    os.makedirs(folder, mode=0o700, exist_ok=True)
    os.chmod(folder, 0o700)
    tmp = f"{path}.{os.getpid()}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        json.dump(data, handle)
    os.replace(tmp, path)


__all__ = ["KeyVaultContentType", "Keyvault"]
