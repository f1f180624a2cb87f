"""Each v1 token is used only where it is valid: a run's Azure ML token never goes to ARM or storage, and
TokenAuthentication's two audiences are never offered to storage."""

from __future__ import annotations

import pytest
from azure.core.exceptions import ClientAuthenticationError

from acpt_estimator.backends.azureml.credentials import AZUREML_SCOPE, data_plane_scope
from acpt_estimator.v1.core.authentication import Audience, AzureMLTokenAuthentication, TokenAuthentication

ARM = "https://management.azure.com/.default"
STORAGE = "https://storage.azure.com/.default"


def test_a_run_token_is_refused_for_arm_and_storage_and_given_for_azure_ml():
    credential = AzureMLTokenAuthentication("aml-tok", run_id="r1").to_credential()
    for scope in (ARM, STORAGE):
        with pytest.raises(ClientAuthenticationError, match="Azure ML's data plane"):
            credential.get_token(scope)
    assert credential.get_token(AZUREML_SCOPE).token == "aml-tok"
    assert data_plane_scope(credential, ARM) == AZUREML_SCOPE  # run history is asked with Azure ML's audience


def test_token_authentication_asks_for_the_audience_of_the_scope_and_never_for_storage():
    seen = []
    auth = TokenAuthentication(lambda audience: seen.append(audience) or "tok-" + audience.value)
    assert auth.get_token(ARM).token == "tok-arm" and auth.get_token(AZUREML_SCOPE).token == "tok-azureml"
    with pytest.raises(ClientAuthenticationError, match="Audience.ARM and Audience.AZUREML only"):
        auth.get_token(STORAGE)
    assert seen == [Audience.ARM, Audience.AZUREML]  # the callback was not asked for a storage token
    assert data_plane_scope(auth, ARM) == ARM
