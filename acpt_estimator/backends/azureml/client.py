"""One MLClient per workspace, the run-history/MLflow service URLs, and SDK errors turned into short messages."""

from __future__ import annotations

import contextlib
import logging
import re
import threading
import urllib.parse

from . import sdk
from .credentials import ARM_SCOPES, to_credential
from ...exceptions import (ExperimentExecutionException, UserErrorException, WorkspaceException)

_lock = threading.Lock()
_SIGN_IN_HELP = (
    "Sign in with `az login` (then retry), or pass auth= to Workspace/Workspace.from_config: "
    "ServicePrincipalAuthentication(tenant_id, service_principal_id, service_principal_password), "
    "MsiAuthentication(), or any azure-identity credential. For DefaultAzureCredential, setting "
    "AZURE_TENANT_ID, AZURE_CLIENT_ID and AZURE_CLIENT_SECRET also works.")


def ml_client(workspace):
    """The workspace's MLClient, created on first use (MLClient itself makes no request at construction)."""
    if getattr(workspace, "is_local", False):
        raise UserErrorException(
            f"Workspace {workspace.name!r} was made for local runs only (no config.json was found while "
            "ACPT_ESTIMATOR_TARGET=local). Download config.json from the Azure ML studio to submit to Azure, "
            "or keep local runs forced.")
    with _lock:
        if workspace._client is None:
            try:
                from azure.ai.ml import MLClient
                import azure.identity  # noqa: F401  (DefaultAzureCredential and the v1 auth mappings)
            except ImportError as err:
                raise UserErrorException(
                    f"Submitting to Azure ML needs azure-ai-ml and azure-identity ({err.name} is missing). Install "
                    "them with: pip install 'acpt-estimator[azure]'") from None
            _quiet_credential_chain()
            credential = to_credential(workspace._auth)
            extra = {} if workspace._cloud in (None, "AzureCloud") else {"cloud": workspace._cloud}
            workspace._credential = credential
            workspace._client = MLClient(credential, workspace.subscription_id, workspace.resource_group,
                                         workspace.name, enable_telemetry=False, show_progress=False, **extra)
        return workspace._client


class _ChainFailureFilter(logging.Filter):
    """Drops azure-identity's multi-line "failed to retrieve a token" warning: our exception says what to do.

    It is kept when the user asked for azure.identity details (level INFO or lower)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if logging.getLogger("azure.identity").getEffectiveLevel() <= logging.INFO:
            return True
        return not (record.levelno == logging.WARNING and "failed to retrieve a token" in str(record.msg))


def _quiet_credential_chain() -> None:
    chain = logging.getLogger(sdk.CREDENTIAL_CHAIN_LOGGER)
    if not any(isinstance(f, _ChainFailureFilter) for f in chain.filters):
        chain.addFilter(_ChainFailureFilter())


@contextlib.contextmanager
def azure_errors(workspace, action: str):
    """Turn azure-core/azure-identity failures into one-line v1 exceptions that say what to do."""
    from azure.core.exceptions import (ClientAuthenticationError, HttpResponseError, ResourceNotFoundError,
                                       ServiceRequestError)

    try:
        yield
    except ClientAuthenticationError as err:
        raise WorkspaceException(
            f"Could not get an Azure access token to {action} in workspace {workspace.name!r} "
            f"({first_line(err)}). {_SIGN_IN_HELP} (To see every credential that was tried: "
            "logging.getLogger('azure.identity').setLevel(logging.INFO).)") from None
    except ServiceRequestError as err:
        raise WorkspaceException(
            f"Could not reach Azure ML to {action} ({first_line(err)}). Check the network connection and "
            "any proxy settings (HTTPS_PROXY), then retry.") from None
    except ResourceNotFoundError as err:
        if workspace_missing(err, workspace):
            raise WorkspaceException(
                f"Workspace {workspace.name!r} was not found in resource group {workspace.resource_group!r} of "
                f"subscription {workspace.subscription_id!r} while trying to {action}. Check config.json (or the "
                "Workspace(...) arguments) against the Azure ML studio's workspace overview.") from None
        raise
    except HttpResponseError as err:
        status = getattr(err, "status_code", None)
        if status in (401, 403):
            raise WorkspaceException(
                f"Azure ML refused to {action} in workspace {workspace.name!r} (HTTP {status}: {first_line(err)}). "
                "Ask for the 'AzureML Data Scientist' role on the workspace, or sign in as another identity. "
                + _SIGN_IN_HELP) from None
        raise ExperimentExecutionException(
            f"Azure ML could not {action} (HTTP {status}: {first_line(err)}).") from None
    except _sdk_errors() as err:  # azure-ai-ml's own (validation) errors: colour-coded, multi-line templates
        from azure.ai.ml.exceptions import ValidationException

        kind = UserErrorException if isinstance(err, ValidationException) else ExperimentExecutionException
        raise kind(f"Azure ML could not {action}: {readable(err)}") from None


def list_or_empty(workspace, action: str, listing) -> list:
    """``list(listing())``, or [] when the service answers 404 for the name asked about: Azure ML answers the
    versions list of an unknown model (environment, data) with HTTP 404 rather than an empty page. A 404 for the
    workspace itself still raises (azure_errors turns it into WorkspaceException first)."""
    from azure.core.exceptions import ResourceNotFoundError

    try:
        with azure_errors(workspace, action):
            return list(listing())
    except ResourceNotFoundError:
        return []


def _sdk_errors() -> tuple:
    try:
        from azure.ai.ml.exceptions import MlException
    except ImportError:  # only azure-core is installed: nothing of azure-ai-ml's can be raised
        return ()
    return (MlException,)


# ARM's codes for a missing workspace or one of its parents (a sub-resource of a missing workspace answers
# ParentResourceNotFound): https://learn.microsoft.com/azure/azure-resource-manager/troubleshooting/error-not-found
_WORKSPACE_GONE = {"ParentResourceNotFound", "ResourceGroupNotFound", "SubscriptionNotFound"}


def error_codes(err) -> list:
    """Every error code the service gave: the OData body's code, the codes in its ``details`` (Azure ML answers
    ``UserError`` on top and the specific code, e.g. ``ModelNotFound``, in ``details[]``, with no header; recorded
    in tests/recordings), then the ``x-ms-error-code`` header."""
    codes, error = [], getattr(err, "error", None)
    if error is not None:
        codes.append(getattr(error, "code", None))
        codes.extend(getattr(d, "code", None) for d in getattr(error, "details", None) or [])
    response = getattr(err, "response", None)
    if response is not None:
        codes.append(getattr(response, "headers", {}).get("x-ms-error-code"))
    return [c for c in codes if c]


def error_code(err) -> str | None:
    """The most specific code the service gave (a ``details[]`` code over a generic ``UserError``)."""
    codes = error_codes(err)
    specific = [c for c in codes if c not in ("UserError", "SystemError")]
    return (specific or codes or [None])[0]


def workspace_missing(err, workspace) -> bool:
    """A 404 means the workspace is missing when ARM says so by code, or when the 404 is for the workspace itself.

    Decided from the status, the error code and the request URL, never from the message text: a missing compute
    whose message mentions "workspace" must stay a ResourceNotFoundError (v1's try/except/create pattern)."""
    if getattr(err, "status_code", None) != 404:
        return False
    if _WORKSPACE_GONE & set(error_codes(err)):
        return True
    request = getattr(getattr(err, "response", None), "request", None)
    path = urllib.parse.urlsplit(getattr(request, "url", "") or "").path.rstrip("/")
    return bool(path) and path.lower() == workspace.arm_id.lower()


_COLOUR = re.compile(r"\x1b\[[0-9;]*m")
# azure-ai-ml's validation template ends with CLI hints and links (_exception_helper.SCHEMA_VALIDATION_ERROR_TEMPLATE);
# azure-core repeats the OData code and message after the first line.
_BOILERPLATE_FROM = ("If using the CLI", "Additional Resources:")
_REPEATS = ("Code:", "Message:", "Target:")


def _meaningful_lines(err) -> list:
    text = _COLOUR.sub("", getattr(err, "message", None) or str(err) or "")
    kept = []
    for line in (ln.strip() for ln in text.splitlines()):
        if line.startswith(_BOILERPLATE_FROM):
            break
        if line and line != "Details:" and not line.startswith(_REPEATS):
            kept.append(line)
    return kept or [type(err).__name__]


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit - 3] + "..."


def readable(err, limit: int = 600) -> str:
    """What an SDK/service error says is wrong, on one line: colour codes, blank lines and CLI boilerplate removed."""
    return _clip(" ".join(_meaningful_lines(err)), limit)


def first_line(err) -> str:
    """The first line that says something (HTTP errors: the OData code and message)."""
    return _clip(_meaningful_lines(err)[0], 300)


def arm_scope(workspace) -> str:
    return ARM_SCOPES.get(workspace._cloud or "AzureCloud", ARM_SCOPES["AzureCloud"])


class Services:
    """Run history, artifacts and MLflow endpoints of a workspace (found through its discovery URL, like the SDK)."""

    def __init__(self, workspace):
        self.workspace = workspace
        self._api = None
        self._mlflow = None
        self._authed = None
        self._anonymous = None

    def _discover(self) -> None:
        client = ml_client(self.workspace)
        with azure_errors(self.workspace, "look up the workspace's service endpoints"):
            entity = client.workspaces.get(self.workspace.name)
            discovery = self.get_json(entity.discovery_url, authed=False)
        self._api = discovery["api"].rstrip("/")
        host = self._api.split("://", 1)[1]
        tracking = entity.mlflow_tracking_uri or f"azureml://{host}/mlflow/v1.0{self.workspace.arm_id}"
        # azureml-mlflow maps azureml:// to https:// and, for MLflow >= 2, /mlflow/v1.0 to /mlflow/v2.0
        # (azureml/mlflow/_store/azureml_reststore.py, get_host_credentials): the same REST API, no plugin.
        self._mlflow = "https://" + tracking.split("://", 1)[1].rstrip("/").replace("/mlflow/v1.0/", "/mlflow/v2.0/")

    @property
    def api(self) -> str:
        if self._api is None:
            self._discover()
        return self._api

    @property
    def mlflow(self) -> str:
        if self._mlflow is None:
            self._discover()
        return self._mlflow

    def history(self, suffix: str) -> str:
        return f"{self.api}/history/v1.0{self.workspace.arm_id}{suffix}"

    def artifacts(self, suffix: str) -> str:
        return f"{self.api}/artifact/v2.0{self.workspace.arm_id}/artifacts{suffix}"

    def _pipeline(self, authed: bool):
        from azure.core import PipelineClient
        from azure.core.pipeline.policies import (BearerTokenCredentialPolicy, HeadersPolicy, RetryPolicy,
                                                  UserAgentPolicy)

        policies = [HeadersPolicy(), UserAgentPolicy("acpt-estimator"), RetryPolicy()]
        if authed:  # SAS URLs (logs, artifact content) carry their own signature: never send them a token
            ml_client(self.workspace)
            policies.append(BearerTokenCredentialPolicy(self.workspace._credential, self._scope()))
        return PipelineClient(base_url="https://management.azure.com", policies=policies)

    def send(self, method: str, url: str, *, authed: bool = True, json=None, params=None, stream=False):
        from azure.core.rest import HttpRequest

        attr = "_authed" if authed else "_anonymous"
        if getattr(self, attr) is None:
            setattr(self, attr, self._pipeline(authed))
        if params:  # azure-core's HttpRequest(params=) does not percent-encode: '#', '+' and spaces would break
            url += ("&" if "?" in url else "?") + urllib.parse.urlencode(params, quote_via=urllib.parse.quote)
        response = getattr(self, attr).send_request(HttpRequest(method, url, json=json), stream=stream)
        response.raise_for_status()
        return response

    def get_json(self, url: str, *, authed: bool = True, params=None):
        return self.send("GET", url, authed=authed, params=params).json()

    def get_bytes(self, url: str) -> bytes:
        response = self.send("GET", url, authed=False)
        return response.read()

    def token(self) -> str:
        ml_client(self.workspace)
        return self.workspace._credential.get_token(self._scope()).token

    def _scope(self) -> str:
        from .credentials import data_plane_scope

        return data_plane_scope(self.workspace._credential, arm_scope(self.workspace))


def services(workspace) -> Services:
    with _lock:
        if getattr(workspace, "_services", None) is None:
            workspace._services = Services(workspace)
        return workspace._services
