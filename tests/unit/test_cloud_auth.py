"""v1 auth= objects map to azure-identity credentials; secrets never show; any TokenCredential is accepted."""

from __future__ import annotations

import pytest

from acpt_estimator.v1.core.authentication import (AzureCliAuthentication, InteractiveLoginAuthentication, MsiAuthentication, ServicePrincipalAuthentication, to_credential)
from acpt_estimator.exceptions import UserErrorException


def test_v1_classes_map_to_their_azure_identity_credentials():
    from azure.identity import (AzureCliCredential, ChainedTokenCredential, ClientSecretCredential,
                                DefaultAzureCredential, InteractiveBrowserCredential, ManagedIdentityCredential)

    assert isinstance(to_credential(None), DefaultAzureCredential)
    sp = ServicePrincipalAuthentication("tenant-1", "app-1", "s3cr3t-value")
    assert isinstance(to_credential(sp), ClientSecretCredential)
    chained = to_credential(InteractiveLoginAuthentication(tenant_id="tenant-1"))
    assert isinstance(chained, ChainedTokenCredential)
    assert [type(c) for c in chained.credentials] == [AzureCliCredential, InteractiveBrowserCredential]
    assert isinstance(to_credential(InteractiveLoginAuthentication(force=True)), InteractiveBrowserCredential)
    assert isinstance(to_credential(MsiAuthentication()), ManagedIdentityCredential)
    assert isinstance(to_credential(MsiAuthentication(identity_config={"client_id": "c"})), ManagedIdentityCredential)
    assert isinstance(to_credential(AzureCliAuthentication()), AzureCliCredential)


def test_any_token_credential_is_used_as_is_and_others_are_refused():
    class MyCredential:
        def get_token(self, *scopes, **kwargs):
            return None

    mine = MyCredential()
    assert to_credential(mine) is mine
    with pytest.raises(UserErrorException, match="not a credential"):
        to_credential("my-password")


def test_secrets_never_show_and_bad_arguments_say_what_to_pass():
    sp = ServicePrincipalAuthentication("tenant-1", "app-1", "s3cr3t-value")
    assert "s3cr3t-value" not in repr(sp) and "s3cr3t-value" not in str(vars(sp).keys())
    with pytest.raises(UserErrorException, match="service_principal_password is missing"):
        ServicePrincipalAuthentication("tenant-1", "app-1", "")
    with pytest.raises(UserErrorException, match="identity_config"):
        MsiAuthentication(identity_config={"client_id": "a", "object_id": "b"})
    with pytest.raises(UserErrorException, match="cloud='Mars'"):
        ServicePrincipalAuthentication("t", "a", "p", cloud="Mars").to_credential()


def test_v1_auth_objects_are_token_credentials_too():
    class Fixed(ServicePrincipalAuthentication):
        def to_credential(self):
            from azure.core.credentials import AccessToken

            class _C:
                def get_token(self, *scopes, **kwargs):
                    return AccessToken("tok-" + scopes[0], 0)

            return _C()

    auth = Fixed("t", "a", "p")
    assert auth.get_authentication_header() == {"Authorization": "Bearer tok-https://management.azure.com/.default"}
