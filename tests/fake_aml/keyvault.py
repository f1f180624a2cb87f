"""The fake's Azure Key Vault (``https://<vault>.vault.azure.net``, tunnelled by proxy.py), for a workspace's secrets.

Shapes from azure-keyvault-secrets 4.12's generated client (.venv/lib/python3.11/site-packages/azure/keyvault/
secrets/_generated/_operations/_operations.py: set_secret PUT /secrets/{name}, get_secret GET /secrets/{name}/
{version}, get_secrets GET /secrets, delete_secret DELETE /secrets/{name}, get_deleted_secret GET
/deletedsecrets/{name}; bodies SecretBundle, SecretItem, DeletedSecretBundle in _generated/models/_models.py) and
its challenge-based authentication (_shared/challenge_auth_policy.py): a request without a bearer token gets a
401 whose WWW-Authenticate names the tenant and the vault resource, and the client retries with a token.
"""

from __future__ import annotations

from .proxy import VAULT_SUFFIX
_CHALLENGE = ('Bearer authorization="https://login.microsoftonline.com/fake-tenant", '
              'resource="https://vault.azure.net"')
_ATTRIBUTES = {"enabled": True, "created": 1767225600, "updated": 1767225600, "recoveryLevel": "Recoverable"}


class FakeVault:
    """Secrets of every fake vault, keyed by (vault, name); values are only ever returned to a bearer."""

    def __init__(self):
        self.secrets: dict = {}  # (vault, name) -> {"value", "contentType"}
        self.deleted: dict = {}

    def handle(self, method, vault, path, headers, body):
        if not headers.get("authorization", "").startswith("Bearer "):
            return 401, {"WWW-Authenticate": _CHALLENGE}, {"error": {"code": "Unauthorized",
                                                                     "message": "AKV10000: Request is missing a "
                                                                                "Bearer or PoP token."}}
        parts = [p for p in path.split("/") if p]
        base = f"https://{vault}{VAULT_SUFFIX}"
        return self._route(method, vault, parts, base, body or {})

    def _route(self, method, vault, parts, base, body):
        if parts == ["secrets"] and method == "GET":
            items = [{"id": f"{base}/secrets/{n}", "attributes": _ATTRIBUTES, "contentType": s["contentType"]}
                     for (v, n), s in sorted(self.secrets.items()) if v == vault]
            return 200, {}, {"value": items, "nextLink": None}
        if len(parts) >= 2 and parts[0] in ("secrets", "deletedsecrets"):
            name = parts[1]
            store = self.secrets if parts[0] == "secrets" else self.deleted
            if method == "PUT":
                return self._put(vault, name, base, body)
            secret = store.get((vault, name))
            if secret is None:
                return 404, {}, {"error": {"code": "SecretNotFound",
                                           "message": f"A secret with (name/id) {name} was not found in this key "
                                                      "vault."}}
            if method == "DELETE":
                self.deleted[(vault, name)] = self.secrets.pop((vault, name))
            return 200, {}, self._bundle(base, name, secret, deleted=method == "DELETE" or parts[0] != "secrets")
        return 404, {}, {"error": {"code": "NoRoute", "message": f"fake vault has no route for {method} {parts}"}}

    def _put(self, vault, name, base, body):
        self.secrets[(vault, name)] = {"value": body["value"], "contentType": body.get("contentType")}
        return 200, {}, self._bundle(base, name, self.secrets[(vault, name)])

    @staticmethod
    def _bundle(base, name, secret, deleted=False):
        bundle = {"value": secret["value"], "id": f"{base}/secrets/{name}/0123456789abcdef",
                  "contentType": secret["contentType"], "attributes": _ATTRIBUTES}
        if deleted:
            bundle.update({"recoveryId": f"{base}/deletedsecrets/{name}", "deletedDate": 1767225600,
                           "scheduledPurgeDate": 1774915200})
        return bundle
