"""``auth=`` to an azure-core TokenCredential: v1 auth objects bring their own ``to_credential()``."""

from __future__ import annotations

from ...exceptions import UserErrorException

ARM_SCOPES = {"AzureCloud": "https://management.azure.com/.default",
              "AzureChinaCloud": "https://management.chinacloudapi.cn/.default",
              "AzureUSGovernment": "https://management.usgovcloudapi.net/.default"}


def to_credential(auth):
    """The azure-core TokenCredential for ``auth=``: None -> DefaultAzureCredential; an object with
    ``to_credential()`` (v1's auth classes) -> its credential; any azure-identity credential as it is."""
    if auth is None:
        from azure.identity import DefaultAzureCredential

        return DefaultAzureCredential()
    if callable(getattr(auth, "to_credential", None)):
        return auth.to_credential()
    if callable(getattr(auth, "get_token", None)):
        return auth
    raise UserErrorException(
        f"auth={type(auth).__name__} is not a credential. Pass a v1 auth object (InteractiveLoginAuthentication(), "
        "ServicePrincipalAuthentication(...), MsiAuthentication()) or any azure-identity credential "
        "(an object with get_token), or leave auth=None to use DefaultAzureCredential.")
