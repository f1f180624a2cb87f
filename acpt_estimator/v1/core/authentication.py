"""v1 ``azureml.core.authentication`` classes, each mapped to its azure-identity credential (imported lazily)."""

from __future__ import annotations

import abc
import enum
import time
from collections import namedtuple

from acpt_estimator.backends.azureml.credentials import ARM_SCOPES, to_credential  # noqa: F401 - v1 has to_credential here
from acpt_estimator.exceptions import UserErrorException
from acpt_estimator._lazy import lazy_names

_AUTHORITIES = {"AzureCloud": None, "AzureChinaCloud": "login.chinacloudapi.cn",
                "AzureUSGovernment": "login.microsoftonline.us"}


def _authority(cloud) -> dict:
    cloud = cloud or "AzureCloud"
    if cloud not in _AUTHORITIES:
        raise UserErrorException(f"cloud={cloud!r} is not known; use one of {sorted(_AUTHORITIES)}.")
    host = _AUTHORITIES[cloud]
    return {"authority": host} if host else {}


class AbstractAuthentication(abc.ABC):
    """Base of the v1 auth classes: ``to_credential()`` gives the azure-identity TokenCredential."""

    _cloud = "AzureCloud"

    @abc.abstractmethod
    def to_credential(self):
        """The azure-identity credential this v1 auth object stands for."""

    def get_token(self, *scopes, **kwargs):
        """Makes every v1 auth object an azure-core TokenCredential too."""
        if not hasattr(self, "_credential"):
            self._credential = self.to_credential()
        return self._credential.get_token(*scopes, **kwargs)

    def get_authentication_header(self) -> dict:
        """v1: the bearer header for Azure Resource Manager calls."""
        token = self.get_token(ARM_SCOPES.get(self._cloud, ARM_SCOPES["AzureCloud"])).token
        return {"Authorization": "Bearer " + token}

    def signed_session(self, session=None):
        """v1: a ``requests.Session`` (the one given, or a new one) carrying the bearer header."""
        import requests

        session = session if session is not None else requests.Session()
        session.headers.update(self.get_authentication_header())
        return session

    def __repr__(self) -> str:  # never shows secrets
        return f"{type(self).__name__}()"


class InteractiveLoginAuthentication(AbstractAuthentication):
    """v1 interactive login: the Azure CLI's cached login first, then a browser sign-in (``force``: browser only)."""

    def __init__(self, force=False, tenant_id=None, cloud=None):
        self.force = force
        self.tenant_id = tenant_id
        self._cloud = cloud or "AzureCloud"

    def to_credential(self):
        from azure.identity import AzureCliCredential, ChainedTokenCredential, InteractiveBrowserCredential

        browser = InteractiveBrowserCredential(tenant_id=self.tenant_id, **_authority(self._cloud))
        if self.force:
            return browser
        return ChainedTokenCredential(AzureCliCredential(tenant_id=self.tenant_id), browser)

    def __repr__(self) -> str:
        return f"InteractiveLoginAuthentication(force={self.force!r}, tenant_id={self.tenant_id!r})"


class AzureCliAuthentication(AbstractAuthentication):
    """v1 ``AzureCliAuthentication``: the token of ``az login``."""

    def __init__(self, cloud=None):
        self._cloud = cloud or "AzureCloud"

    def to_credential(self):
        from azure.identity import AzureCliCredential

        return AzureCliCredential()


class ServicePrincipalAuthentication(AbstractAuthentication):
    """v1 service principal login -> ``ClientSecretCredential``; the password is never shown."""

    def __init__(self, tenant_id, service_principal_id, service_principal_password, cloud="AzureCloud",
                 _enable_caching=True):
        for param, value in (("tenant_id", tenant_id), ("service_principal_id", service_principal_id),
                             ("service_principal_password", service_principal_password)):
            if not value or not isinstance(value, str):
                raise UserErrorException(
                    f"ServicePrincipalAuthentication {param} is missing or not a string; pass the service "
                    "principal's tenant id, application (client) id and secret (e.g. from environment variables).")
        self.tenant_id = tenant_id
        self.service_principal_id = service_principal_id
        self._secret = service_principal_password
        self._cloud = cloud or "AzureCloud"

    def to_credential(self):
        from azure.identity import ClientSecretCredential

        return ClientSecretCredential(self.tenant_id, self.service_principal_id, self._secret,
                                      **_authority(self._cloud))

    def __repr__(self) -> str:
        return (f"ServicePrincipalAuthentication(tenant_id={self.tenant_id!r}, "
                f"service_principal_id={self.service_principal_id!r}, service_principal_password='***')")


class MsiAuthentication(AbstractAuthentication):
    """v1 managed identity -> ``ManagedIdentityCredential``; ``identity_config`` picks a user-assigned identity."""

    _KEYS = {"client_id": "client_id", "object_id": "object_id", "mi_res_id": "resource_id",
             "resource_id": "resource_id"}

    def __init__(self, cloud=None, identity_config=None):
        self._cloud = cloud or "AzureCloud"
        self.identity_config = dict(identity_config or {})
        unknown = sorted(set(self.identity_config) - set(self._KEYS))
        if unknown or len(self.identity_config) > 1:
            raise UserErrorException(
                f"MsiAuthentication identity_config={self.identity_config!r} is not understood; pass at most one of "
                "{'client_id': ...}, {'object_id': ...} or {'mi_res_id': ...}.")

    def to_credential(self):
        from azure.identity import ManagedIdentityCredential

        if not self.identity_config:
            return ManagedIdentityCredential()
        (key, value), = self.identity_config.items()
        if self._KEYS[key] == "client_id":
            return ManagedIdentityCredential(client_id=value)
        return ManagedIdentityCredential(identity_config={self._KEYS[key]: value})

    def __repr__(self) -> str:
        return f"MsiAuthentication(identity_config={self.identity_config!r})"


AccessToken = namedtuple("AccessToken", ["token", "expires_on"])
AccessToken.__doc__ = "v1 (and azure-core): a bearer token and its expiry in seconds since the epoch."


class Audience(str, enum.Enum):
    """v1: whom a token from ``TokenAuthentication``'s callback is for."""

    ARM = "arm"
    AZUREML = "azureml"


class _StaticToken:
    """A TokenCredential over one token the caller already has."""

    def __init__(self, token, expires_on):
        self._token, self._expires_on = token, expires_on

    def get_token(self, *scopes, **kwargs):
        from azure.core.credentials import AccessToken as CoreToken

        return CoreToken(self._token, int(self._expires_on or time.time() + 3600))


def _check_token(param, value) -> None:
    if not value or not isinstance(value, str):
        raise UserErrorException(f"{param} must be the access token string (a JWT); got {type(value).__name__}.")


class TokenAuthentication(AbstractAuthentication):
    """v1: ``get_token_for_audience(audience)`` returns a token (or ``(token, expires_on)``) for an ``Audience``."""

    def __init__(self, get_token_for_audience, cloud=None):
        if not callable(get_token_for_audience):
            raise UserErrorException("TokenAuthentication(get_token_for_audience=...) must be a function taking an "
                                     "Audience and returning an access token.")
        self._get_token_for_audience = get_token_for_audience
        self._cloud = cloud or "AzureCloud"

    def to_credential(self):
        return self

    def get_token(self, *scopes, **kwargs):
        from azure.core.credentials import AccessToken as CoreToken

        from acpt_estimator.backends.azureml.credentials import scope_kind

        kinds = {scope_kind(s) for s in scopes} or {"arm"}
        if kinds & {"storage", "vault"}:  # v1's callback knows two audiences only: ARM's token is not storage's
            _refuse_scope("TokenAuthentication", scopes, "its get_token_for_audience callback answers for "
                          "Audience.ARM and Audience.AZUREML only")
        answer = self._get_token_for_audience(Audience.ARM if "arm" in kinds else Audience.AZUREML)
        token, expires_on = answer if isinstance(answer, tuple) else (answer, None)
        _check_token("The token from get_token_for_audience", token)
        return CoreToken(token, int(expires_on or time.time() + 3600))


class ArmTokenAuthentication(AbstractAuthentication):
    """v1 (deprecated there too): one ARM access token the caller already has."""

    def __init__(self, arm_access_token, cloud=None):
        _check_token("arm_access_token", arm_access_token)
        self._token = arm_access_token
        self._cloud = cloud or "AzureCloud"

    def to_credential(self):
        return _StaticToken(self._token, None)


class AzureMLTokenAuthentication(AbstractAuthentication):
    """v1: a run's Azure ML token (what ``AZUREML_RUN_TOKEN`` held in v1 jobs), used as a bearer token."""

    def __init__(self, azureml_access_token, expiry_time=None, host=None, subscription_id=None,
                 resource_group_name=None, workspace_name=None, experiment_name=None, run_id=None, user_email=None,
                 experiment_id=None, cloud="AzureCloud"):
        _check_token("azureml_access_token", azureml_access_token)
        self._token = azureml_access_token
        expiry = expiry_time.timestamp() if hasattr(expiry_time, "timestamp") else expiry_time
        self._expires_on = expiry
        self._cloud = cloud or "AzureCloud"
        self.host, self.subscription_id, self.resource_group_name = host, subscription_id, resource_group_name
        self.workspace_name, self.experiment_name, self.run_id = workspace_name, experiment_name, run_id
        self.experiment_id, self.user_email = experiment_id, user_email

    def to_credential(self):
        return _AzureMLToken(self._token, self._expires_on)


class _AzureMLToken(_StaticToken):
    """A run's Azure ML token: valid for Azure ML's data plane only, never sent to ARM or storage."""

    azureml_only = True

    def get_token(self, *scopes, **kwargs):
        from acpt_estimator.backends.azureml.credentials import scope_kind

        if any(scope_kind(s) in ("arm", "storage", "vault") for s in scopes):
            _refuse_scope("AzureMLTokenAuthentication", scopes, "it holds a run's Azure ML token, whose audience "
                          "is Azure ML's data plane (run history, artifacts, metrics)")
        return super().get_token(*scopes, **kwargs)


def _refuse_scope(auth: str, scopes, why: str) -> None:
    from azure.core.exceptions import ClientAuthenticationError

    raise ClientAuthenticationError(
        f"{auth} cannot give a token for {', '.join(scopes)}: {why}. Use ServicePrincipalAuthentication, "
        "MsiAuthentication or an azure-identity credential for Azure Resource Manager and storage calls.")


__all__ = sorted(["AbstractAuthentication", "AccessToken", "ArmTokenAuthentication", "Audience",
                  "AzureCliAuthentication", "AzureMLTokenAuthentication", "InteractiveLoginAuthentication",
                  "MsiAuthentication", "ServicePrincipalAuthentication", "TokenAuthentication", "to_credential"])


# v1 names this module also exported, defined elsewhere: resolved on first use (v1-importable.json).
__getattr__, __dir__ = lazy_names(__name__, {
    **dict.fromkeys(["AuthenticationException", "RunEnvironmentException", "UserErrorException"],
        "acpt_estimator.exceptions"),
    "NewLoggingLevel": "acpt_estimator.v1.core.util",
})
