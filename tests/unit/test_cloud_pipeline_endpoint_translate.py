"""What a v1 PipelineEndpoint sends to Azure ML, pinned without a service: the batch endpoint and the pipeline
component deployment of each version (golden files, each read back through azure-ai-ml's own schemas), the wire
body of the deployment, and v2-valid endpoint names."""

from __future__ import annotations

import json
import re

import pytest

from acpt_estimator.backends.azureml import pipeline_endpoints
from acpt_estimator.exceptions import UserErrorException

from .golden import check_golden

COMPONENT_ID = ("/subscriptions/s/resourceGroups/rg/providers/Microsoft.MachineLearningServices/workspaces/ws/"
                "components/nightly_train_0c8e9a6b/versions/1.0")
PUBLISHED = {"id": "nightly_train_0c8e9a6b:1.0", "name": "Nightly Train", "componentId": COMPONENT_ID,
             "continueOnStepFailure": True, "description": "nightly"}


def _plain(entity) -> dict:
    return json.loads(json.dumps(entity._to_dict()))


def test_a_pipeline_endpoint_is_a_batch_endpoint_named_after_it_and_tagged_as_one():
    from azure.ai.ml.entities import BatchEndpoint

    endpoint = pipeline_endpoints.to_endpoint("Scoring Endpoint", "scores nightly")
    data = _plain(endpoint)
    check_golden("pipeline_endpoint_batch_endpoint", data)
    again = BatchEndpoint._load(data=data)  # the SDK's schema reads it back unchanged
    assert (again.name, again.description, again.tags) == (endpoint.name, "scores nightly", endpoint.tags)
    rest = endpoint._to_rest_batch_endpoint("eastus").as_dict()
    assert rest["tags"][pipeline_endpoints.ENDPOINT_TAG] == "True" and rest["properties"]["authMode"] == "aadToken"


def test_a_version_is_a_pipeline_component_batch_deployment_of_the_published_component():
    from azure.ai.ml.entities import PipelineComponentBatchDeployment

    deployment = pipeline_endpoints.to_deployment("scoring-endpoint-9cc3ecb0", 1, PUBLISHED)
    data = _plain(deployment)
    check_golden("pipeline_endpoint_deployment", data)
    again = PipelineComponentBatchDeployment._load(data=data)  # the SDK's own schema for pipeline deployments
    assert (again.name, again.endpoint_name, again.component) == ("version-1", "scoring-endpoint-9cc3ecb0",
                                                                  COMPONENT_ID)
    assert again.settings == {"continue_on_step_failure": True}
    wire = deployment._to_rest_object(location="eastus").as_dict()["properties"]["deploymentConfiguration"]
    assert wire == {"deploymentConfigurationType": "PipelineComponent", "settings": {"continue_on_step_failure": True},
                    "componentId": {"referenceType": "Id", "assetId": COMPONENT_ID}}


@pytest.mark.parametrize("name, expected", [("scoring", "scoring"), ("Scoring-2", "scoring-2"), ("abc", "abc")])
def test_valid_endpoint_names_are_kept_lower_cased_as_azure_ai_ml_sends_them(name, expected):
    assert pipeline_endpoints.endpoint_name(name) == expected


@pytest.mark.parametrize("name", ["Scoring Endpoint", "2nd endpoint", "ab", "a" * 40, "score_v1", "épreuve-final",
                                  "x--"])
def test_other_names_become_valid_distinct_endpoint_names(name):
    made = pipeline_endpoints.endpoint_name(name)
    assert re.fullmatch(r"[a-z][-a-z0-9]{1,30}[a-z0-9]", made), made
    assert made == pipeline_endpoints.endpoint_name(name)  # deterministic: get() finds what publish() made
    assert made != pipeline_endpoints.endpoint_name(name + "!")


def test_an_endpoint_needs_a_name():
    with pytest.raises(UserErrorException, match="needs a name"):
        pipeline_endpoints.to_endpoint("", "d")


def test_get_needs_a_name_or_an_id():
    from acpt_estimator.v1.pipeline.core import PipelineEndpoint

    with pytest.raises(ValueError, match="name the endpoint"):
        PipelineEndpoint.get(object())
