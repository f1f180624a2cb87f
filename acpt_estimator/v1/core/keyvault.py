"""v1 ``azureml.core.keyvault``: workspace secrets through the workspace's secrets service (``acpt_estimator.services``):
locally files readable only by you, in the cloud the workspace's key vault. Secret values are never printed or logged."""

from __future__ import annotations

import enum
import re

from acpt_estimator.exceptions import UserErrorException

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
        self._stores = {}  # local/cloud -> the secrets service (the cloud one keeps its SecretClient)

    # ---- v1 members ----------------------------------------------------------------------------------
    def set_secret(self, name, value, content_type=KeyVaultContentType.not_provided) -> None:
        _check_name(name)
        if not isinstance(value, str):
            raise UserErrorException(f"set_secret({name!r}, value=<{type(value).__name__}>): the value must be a "
                                     "string; serialize it first (e.g. json.dumps).")
        self._store().set(name, value, getattr(content_type, "value", content_type))

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
        return [{"name": name} for name in self._store().names()]

    def delete_secret(self, name) -> None:
        if not self._store().delete(_check_name(name)):
            raise self._missing(name)

    def delete_secrets(self, secrets) -> None:
        for name in ([secrets] if isinstance(secrets, str) else secrets):
            self.delete_secret(name)

    # ---- storage -------------------------------------------------------------------------------------
    def _store(self):
        from acpt_estimator.services import services_for

        secrets = services_for(self.workspace).secrets  # chosen on each call: local runs may be forced later
        return self._stores.setdefault(type(secrets), secrets)  # one per kind: the cloud one keeps its client

    def _missing(self, name) -> UserErrorException:
        return UserErrorException(f"Secret {name!r} is not in the workspace key vault; set it with "
                                  f"ws.get_default_keyvault().set_secret({name!r}, value) or check list_secrets().")

    def _read(self, name) -> dict:
        found = self._store().read(_check_name(name))
        if found is None:
            raise self._missing(name)
        return found

    def __repr__(self) -> str:
        return f"Keyvault(workspace={getattr(self.workspace, 'name', None)!r})"


__all__ = ["KeyVaultContentType", "Keyvault"]
