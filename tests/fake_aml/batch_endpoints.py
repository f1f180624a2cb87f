"""The fake's batch endpoints, their pipeline component deployments, and the invoke POST to an endpoint's scoring
URI, which starts a pipeline job of the deployed component.

Shapes: the recorded exchanges of azure-ai-ml's batch endpoint end-to-end test (Azure/azure-sdk-assets,
python/sdk/ml/azure-ai-ml/tests/recordings/batch_services/e2etests/
test_batch_endpoint.pyTestBatchEndpointtest_batch_endpoint_create.json): PUT batchEndpoints/<name> answers 201 with
Azure-AsyncOperation and Location headers and the endpoint with provisioningState Creating, scoringUri null and
properties BatchEndpointCreationApiVersion/azureml.onlineendpointid; the operation status is {id, name, status}; GET
answers provisioningState Succeeded and the scoringUri ``https://<endpoint>.<region>.inference.ml.azure.com/jobs``
(here on the fake: ``<fake>/batch-scoring/<endpoint>/jobs``); the PUT is replayed by
tests/recordings/excerpts/batch-endpoint-put.json. Deployments, the endpoint list and the invoke answer have no
recording: see tests/recordings/UNVERIFIED.md.
"""

from __future__ import annotations

import copy
import uuid

from .schedules import _SYSTEM

SCORING_PREFIX = "/batch-scoring/"
# the recorded endpoint's systemData (deployments: the schedules' fuller form, unrecorded)
_ENDPOINT_SYSTEM = {"createdAt": "2026-01-01T00:00:00+00:00", "createdBy": "Fake User",
                    "lastModifiedAt": "2026-01-01T00:00:00+00:00"}


class BatchEndpointsMixin:
    """Handlers over ``self.batch_endpoints`` (name -> resource) and ``self.batch_deployments`` ((endpoint, name) ->
    resource); ``self.invocations`` keeps each invoke's body and headers. Mixed into FakeState."""

    def _batch_routes(self, ws_pattern):
        endpoint = ws_pattern + r"/batchEndpoints/(?P<endpoint>[^/]+)"
        return [
            ("PUT", endpoint, self.put_batch_endpoint),
            ("GET", endpoint, self.get_batch_endpoint),
            ("GET", ws_pattern + r"/batchEndpoints", self.list_batch_endpoints),
            ("PUT", endpoint + r"/deployments/(?P<name>[^/]+)", self.put_batch_deployment),
            ("GET", endpoint + r"/deployments/(?P<name>[^/]+)", self.get_batch_deployment),
            ("GET", endpoint + r"/deployments", self.list_batch_deployments),
        ]

    def _operation_headers(self, resource_path: str) -> dict:
        operation = f"bebes:{uuid.uuid4()}"
        ops = f"{self.base_url}/subscriptions/{self.subscription_id}/providers/Microsoft.MachineLearningServices/" \
              f"locations/eastus/mfeOperationsStatus/{operation}?api-version=2023-10-01"
        return {"Azure-AsyncOperation": ops, "x-ms-async-operation-timeout": "PT30M",
                "Location": f"{self.base_url}{resource_path}?api-version=2023-10-01"}

    # ---- endpoints ------------------------------------------------------------------------------------
    def put_batch_endpoint(self, endpoint, body, **_):
        path = f"{self.ws_id}/batchEndpoints/{endpoint}"
        props = copy.deepcopy(body.get("properties") or {})
        created = endpoint not in self.batch_endpoints
        props["properties"] = dict(props.get("properties") or {}, BatchEndpointCreationApiVersion="2023-10-01",
                                   **{"azureml.onlineendpointid": path})
        props.update(scoringUri=f"{self.base_url}{SCORING_PREFIX}{endpoint}/jobs", swaggerUri=None,
                     authMode="AADToken", defaults=props.get("defaults") or {"deploymentName": None},
                     provisioningState="Succeeded")
        resource = {"id": path, "name": endpoint, "type": "Microsoft.MachineLearningServices/workspaces/batchEndpoints",
                    "properties": props, "systemData": dict(_ENDPOINT_SYSTEM), "tags": dict(body.get("tags") or {}),
                    "location": body.get("location") or "eastus"}
        self.batch_endpoints[endpoint] = resource
        answer = copy.deepcopy(resource)
        answer["properties"].update(provisioningState="Creating" if created else "Updating",
                                    scoringUri=None if created else answer["properties"]["scoringUri"])
        return (201 if created else 200), self._operation_headers(path), answer

    def get_batch_endpoint(self, endpoint, **_):
        if endpoint not in self.batch_endpoints:
            return _endpoint_not_found(endpoint, self.workspace_name)
        return 200, {}, copy.deepcopy(self.batch_endpoints[endpoint])

    def list_batch_endpoints(self, **_):
        return 200, {}, {"value": [copy.deepcopy(e) for e in self.batch_endpoints.values()]}

    # ---- deployments ----------------------------------------------------------------------------------
    def put_batch_deployment(self, endpoint, name, body, **_):
        if endpoint not in self.batch_endpoints:
            return _endpoint_not_found(endpoint, self.workspace_name)
        path = f"{self.ws_id}/batchEndpoints/{endpoint}/deployments/{name}"
        created = (endpoint, name) not in self.batch_deployments
        resource = {"id": path, "name": name,
                    "type": "Microsoft.MachineLearningServices/workspaces/batchEndpoints/deployments",
                    "properties": dict(copy.deepcopy(body.get("properties") or {}), provisioningState="Succeeded"),
                    "systemData": dict(_SYSTEM), "tags": dict(body.get("tags") or {}),
                    "location": body.get("location") or "eastus"}
        self.batch_deployments[(endpoint, name)] = resource
        answer = copy.deepcopy(resource)
        answer["properties"]["provisioningState"] = "Creating" if created else "Updating"
        return (201 if created else 200), self._operation_headers(path), answer

    def get_batch_deployment(self, endpoint, name, **_):
        from .history import _not_found

        item = self.batch_deployments.get((endpoint, name))
        return (200, {}, copy.deepcopy(item)) if item else _not_found("Deployment", name)

    def list_batch_deployments(self, endpoint, **_):
        if endpoint not in self.batch_endpoints:
            return _endpoint_not_found(endpoint, self.workspace_name)
        return 200, {}, {"value": [copy.deepcopy(d) for (e, _), d in self.batch_deployments.items() if e == endpoint]}

    # ---- invoke: the scoring URI ----------------------------------------------------------------------
    def invoke_batch_endpoint(self, method, path, headers, body):
        """POST <scoringUri>: the deployment named by the ``azureml-model-deployment`` header (else the endpoint's
        default) runs: a pipeline job of its component, with the invoke's inputs as the job's literal inputs."""
        endpoint, _, rest = path[len(SCORING_PREFIX):].partition("/")
        if method != "POST" or rest != "jobs" or endpoint not in self.batch_endpoints:
            return 404, {}, {"error": {"code": "NotFound", "message": f"no batch endpoint at {path}"}}
        if not (headers.get("authorization") or "").startswith("Bearer "):
            return 401, {}, {"error": {"code": "Unauthorized", "message": "no bearer token"}}
        deployment_name = headers.get("azureml-model-deployment") or \
            (self.batch_endpoints[endpoint]["properties"].get("defaults") or {}).get("deploymentName")
        deployment = self.batch_deployments.get((endpoint, deployment_name))
        if deployment is None:
            return 400, {}, {"error": {"code": "UserError", "message": f"No deployment {deployment_name!r} for "
                                                                       f"endpoint {endpoint!r}."}}
        self.invocations.append({"endpoint": endpoint, "deployment": deployment_name, "body": body,
                                 "headers": dict(headers)})
        props = body.get("properties") or {}
        config = deployment["properties"].get("deploymentConfiguration") or {}
        inputs = {key: _pipeline_input(value) for key, value in (props.get("inputData") or {}).items()}
        job_name = props.get("jobName") or f"batchjob-{uuid.uuid4()}"
        job = {"properties": {"jobType": "Pipeline", "componentId": config["componentId"]["assetId"],
                              "inputs": inputs, "experimentName": (props.get("properties") or {}).get(
                                  "experimentName") or endpoint, "displayName": job_name,
                              "settings": dict(config.get("settings") or {}), "tags": {},
                              "properties": {"azureml.batchrun": "true"}}}
        status, _, created = self.put_job(job_name, job)
        return 200, {}, {"id": created["id"], "name": job_name, "type": "Microsoft.MachineLearningServices/"
                         "workspaces/jobs", "properties": {"status": created["properties"].get("status")}}


def _pipeline_input(value: dict) -> dict:
    """An invoke's input (the batch job wire: Literal with a value, UriFolder/UriFile with a uri) as the pipeline
    job's input."""
    if value.get("jobInputType") == "Literal":
        return {"jobInputType": "literal", "value": str(value.get("value"))}
    return {"jobInputType": {"UriFolder": "uri_folder", "UriFile": "uri_file"}.get(value.get("jobInputType"),
                                                                                   value.get("jobInputType")),
            "uri": value.get("uri")}


def _endpoint_not_found(endpoint: str, workspace: str):
    """The recorded 404 of a deleted endpoint (same recording as the module docstring's)."""
    message = (f"An endpoint with the name '{endpoint}' does not exist in the workspace '{workspace}'. Please check "
               "the endpoint name and also ensure the current user has access to it.")
    return 404, {}, {"error": {"code": "UserError", "message": message, "details": [], "additionalInfo": [
        {"type": "InnerError", "info": {"value": {"code": "NotFound", "innerError": {
            "code": "EndpointNotFound", "innerError": None}}}}]}}
