"""``auth=`` to an azure-core TokenCredential: v1 auth objects bring their own ``to_credential()``."""

from __future__ import annotations

from ...exceptions import UserErrorException

ARM_SCOPES = {"AzureCloud": "https://management.azure.com/.default",
              "AzureChinaCloud": "https://management.chinacloudapi.cn/.default",
              "AzureUSGovernment": "https://management.usgovcloudapi.net/.default"}
AZUREML_SCOPE = "https://ml.azure.com/.default"  # Azure ML's data plane (run history, artifacts, metrics, MLflow)


def scope_kind(scope: str) -> str:
    """'arm', 'azureml', 'storage', 'vault' or 'other' for a token scope."""
    if scope in ARM_SCOPES.values() or "//management." in scope:
        return "arm"
    if "//ml.azure." in scope or "azureml" in scope:
        return "azureml"
    if "//storage." in scope or ".blob.core." in scope:
        return "storage"
    if "//vault." in scope or ".vault." in scope:
        return "vault"
    return "other"


def data_plane_scope(credential, arm: str) -> str:
    """The scope to ask for run history and friends: ARM's (which they accept) unless the credential holds only an
    Azure ML token (``AzureMLTokenAuthentication``), whose audience is Azure ML itself."""
    return AZUREML_SCOPE if getattr(credential, "azureml_only", False) else arm


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
