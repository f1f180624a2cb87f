"""What the fake remembers and how it answers: workspace, code assets, blobs, jobs, run history, MLflow, assets."""

from __future__ import annotations

import copy
import json
import re
import time
import uuid

import attrs

from .batch_endpoints import SCORING_PREFIX, BatchEndpointsMixin
from .blobs import BlobStore
from .core_assets import CoreAssetsMixin, runtime_properties
from .history import TERMINAL, RunHistoryMixin, _arm_error, _not_found, _user_error
from .keyvault import FakeVault
from .listing import ListingMixin
from .metrics_v2 import MetricsV2Mixin
from .mlflow_api import MlflowMixin
from .pipelines import PipelinesMixin
from .run_uploads import RunUploadsMixin
from .schedules import SchedulesMixin

_WS = (r"/subscriptions/(?P<sub>[^/]+)/resourceGroups/(?P<rg>[^/]+)/providers/Microsoft\.MachineLearningServices"
       r"/workspaces/(?P<ws>[^/]+)")
_HISTORY, _ARTIFACTS = r"/history/v1\.0" + _WS, r"/artifact/v2\.0" + _WS + r"/artifacts"
_MLFLOW = r"/mlflow/v2\.0" + _WS + r"/api/2\.0/mlflow"
_METRIC = r"/metric/v2\.0" + _WS + r"/runs/(?P<name>[^/]+)"


@attrs.define
class JobScript:
    """How a job walks through states, and what it leaves behind (logs, metrics, output files)."""

    states: tuple = ("Queued", "Running", "Completed")
    logs: dict | None = None  # None: what the service writes for the job's type (see FakeJob.logs)
    metrics: dict = attrs.Factory(lambda: {"lr": [0.01], "loss": [0.9, 0.5]})
    files: dict = attrs.Factory(lambda: {"outputs/model.pt": b"fake-model-bytes"})
    error: dict | None = None
    children: tuple = ()  # sweep trials: (hyperparameters dict, JobScript) pairs
    trial_tag_prefix: str = "_aml_system_"  # the sweep run's tag per trial: current service; "" as older runs
    nodes: dict | None = None  # pipeline jobs: node name -> JobScript of the child job the service starts for it


@attrs.define
class FakeJob:
    name: str
    body: dict
    script: JobScript
    polls: int = 0
    canceled: bool = False
    parent: str | None = None
    created: float = attrs.Factory(time.time)
    mlflow: dict | None = None  # {"metrics": {key: [(value, step, ms)]}, "tags": {...}}, made on first use
    node: str | None = None  # a pipeline's child: the node it runs

    @property
    def logs(self) -> dict:
        """The script's logs, else the service's default: a command job's rank-0 user log; a sweep job writes
        only ``azureml-logs/hyperdrive.txt`` (the log azure-ai-ml's JobLogPattern.SWEEP_JOB_LOG_PATTERN streams)."""
        if self.script.logs is not None:
            return self.script.logs
        if (self.body.get("properties") or {}).get("jobType") == "Sweep":
            return {"azureml-logs/hyperdrive.txt": ["[hyperdrive] Sweep started", "[hyperdrive] Trial 0 completed",
                                                    "[hyperdrive] Sweep completed"]}
        return {"user_logs/std_log.txt": ["Epoch 1 loss 0.9", "Epoch 2 loss 0.5", "Training finished"]}

    def status(self, advance: bool = True) -> str:
        if self.canceled:
            return "Canceled"
        status = self.script.states[min(self.polls, len(self.script.states) - 1)]
        if advance:
            self.polls += 1
        return status

    def current_status(self) -> str:
        return self.status(advance=False) if self.polls == 0 else (
            "Canceled" if self.canceled else self.script.states[min(self.polls - 1, len(self.script.states) - 1)])

    def visible_log_lines(self, name: str) -> list:
        lines = self.logs.get(name, [])
        status = self.current_status()
        if status in TERMINAL:
            return lines
        return lines[: len(lines) // 2] if status == "Running" else []


class FakeState(RunHistoryMixin, ListingMixin, MetricsV2Mixin, MlflowMixin, CoreAssetsMixin, RunUploadsMixin, PipelinesMixin,
                SchedulesMixin, BatchEndpointsMixin):
    """All resources of one fake workspace; ``dispatch`` answers one request."""

    def __init__(self, subscription_id: str, resource_group: str, workspace_name: str):
        self.subscription_id, self.resource_group, self.workspace_name = subscription_id, resource_group, workspace_name
        self.base_url = ""
        self.codes: dict = {}  # (name, version) -> resource
        self.components: dict = {}  # (name, version) -> resource (anonymous and registered components)
        self.schedules: dict = {}  # name -> the schedule's properties
        self.batch_endpoints: dict = {}  # name -> resource
        self.batch_deployments: dict = {}  # (endpoint, name) -> resource
        self.invocations: list = []  # each POST to a batch endpoint's scoring URI
        self.jobs: dict = {}
        self.job_creations = 0
        self.models: dict = {}  # (name, version) -> resource
        self.environments: dict = {}
        self.computes: dict = {}
        self.datastores = {"workspaceblobstore": True, "workspacefilestore": False}
        self.registered_datastores: dict = {}  # name -> properties, from Datastore.register_*
        self.data_assets: dict = {}  # (name, version) -> resource
        self.archived_data: set = set()  # data asset names archived (v1 unregister_all_versions)
        self.blobs = BlobStore()
        self.vault = FakeVault()
        self.next_script: JobScript | None = None
        self._routes = [(m, re.compile(p + r"$"), f) for m, p, f in self._route_table()]

    @property
    def ws_id(self) -> str:
        return (f"/subscriptions/{self.subscription_id}/resourceGroups/{self.resource_group}/providers/"
                f"Microsoft.MachineLearningServices/workspaces/{self.workspace_name}")

    def _route_table(self):
        """Where each route's shape comes from (paths under azure/ai/ml/ in site-packages):

        - workspace, codes, environments, jobs, computes, datastores, data, models, operationResults: the SDK's
          generated ARM client, _restclient/arm_ml_service/operations/_operations.py (request ``_url``s and
          models); the 404 envelopes are ARM's (history.py ``_arm_error``).
        - discovery: the workspace's ``discoveryUrl`` document, read as operations/_job_ops_helper.py (jobs.stream)
          and our client do (spec/v2-target.md section 4.1).
        - history/v1.0 run details, children and the metadata PATCH: _restclient/runhistory/operations/
          _runs_operations.py.
        - artifact/v2.0 listing and contentinfo?path=: the published ArtifactAPI swagger (see history.py).
        - metric/v2.0 batch, list, full: _restclient/runhistory/operations/_metric_operations.py (metrics_v2.py).
        - mlflow: the MLflow REST API 2.0 under the workspace's tracking URI, as azureml-mlflow calls it.
        - /logs, /artifactcontent, /blob: stand-ins for the SAS URLs of blob storage (blobs.py for the latter).
        """
        return [
            ("GET", _WS, self.get_workspace),
            ("GET", r"/discovery", self.get_discovery),
            ("GET", _WS + r"/codes/(?P<name>[^/]+)/versions", self.list_code_versions),
            ("GET", _WS + r"/codes/(?P<name>[^/]+)/versions/(?P<version>[^/]+)", self.get_code_version),
            ("POST", _WS + r"/codes/(?P<name>[^/]+)/versions/(?P<version>[^/]+)/startPendingUpload", self.start_upload),
            ("PUT", _WS + r"/codes/(?P<name>[^/]+)/versions/(?P<version>[^/]+)", self.put_code_version),
            ("PUT", _WS + r"/environments/(?P<name>[^/]+)/versions/(?P<version>[^/]+)", self.put_environment),
            ("GET", _WS + r"/environments/(?P<name>[^/]+)/versions/(?P<version>[^/]+)", self.get_environment),
            ("GET", _WS + r"/environments/(?P<name>[^/]+)/versions", self.list_environment_versions),
            ("GET", _WS + r"/environments/(?P<name>[^/]+)", self.get_environment_container),
            ("GET", _WS + r"/environments", self.list_environment_containers),
            ("PUT", _WS + r"/jobs/(?P<name>[^/]+)", self.put_job),
            ("GET", _WS + r"/jobs/(?P<name>[^/]+)", self.get_job),
            ("GET", _WS + r"/jobs", self.list_jobs),
            ("POST", _WS + r"/jobs/(?P<name>[^/]+)/cancel", self.cancel_job),
            ("POST", _HISTORY + r"/experiments/(?P<experiment>[^/]+)/runs:query", self.query_runs),
            ("POST", _HISTORY + r"/experiments:query", self.query_experiments),
            ("GET", _HISTORY + r"/computes/(?P<compute>[^/]+)/runs", self.compute_runs),
            ("GET", _HISTORY + r"(?:/experiments/[^/]+)?/runs/(?P<name>[^/]+)/details", self.run_details),
            ("GET", _HISTORY + r"/runs/(?P<name>[^/]+)/children", self.run_children),
            ("POST", _HISTORY + r"/experiments/[^/]+/runs/(?P<name>[^/]+)/artifacts/batch/metadata",
             self.batch_create_artifacts),
            ("GET", _HISTORY + r"(?:/experiments/[^/]+)?/runs/(?P<name>[^/]+)", self.run_get),
            ("PATCH", _HISTORY + r"/experiments/[^/]+/runs/(?P<name>[^/]+)", self.patch_run),
            ("DELETE", _HISTORY + r"(?:/experiments/[^/]+)?/runs/(?P<name>[^/]+)/tags", self.delete_run_tags),
            ("GET", r"/logs/(?P<name>[^/]+)/(?P<file>.+)", self.log_content),
            ("GET", _ARTIFACTS + r"/ExperimentRun/dcid\.(?P<name>[^/]+)", self.list_artifacts),
            ("GET", _ARTIFACTS + r"/ExperimentRun/dcid\.(?P<name>[^/]+)/contentinfo", self.artifact_info),
            ("GET", _ARTIFACTS + r"/write/ExperimentRun/dcid\.(?P<name>[^/]+)/(?P<file>.+)", self.artifact_write_uri),
            ("GET", r"/artifactcontent/(?P<name>[^/]+)/(?P<file>.+)", self.artifact_content),
            ("POST", _METRIC + r"/batch", self.metrics_v2_batch),
            ("POST", _METRIC + r"/list", self.metrics_v2_list),
            ("POST", _METRIC + r"/full", self.metrics_v2_full),
            ("GET", _MLFLOW + r"/runs/get", self.mlflow_run),
            ("GET", _MLFLOW + r"/metrics/get-history", self.mlflow_history),
            ("POST", _MLFLOW + r"/runs/log-metric", self.mlflow_log_metric),
            ("POST", _MLFLOW + r"/runs/set-tag", self.mlflow_set_tag),
            ("POST", _MLFLOW + r"/runs/log-batch", self.mlflow_log_batch),
            ("POST", _MLFLOW + r"/runs/delete-tag", self.mlflow_delete_tag),
            ("GET", _MLFLOW + r"/experiments/get-by-name", self.mlflow_experiment_by_name),
            ("GET", _MLFLOW + r"/experiments/get", self.mlflow_get_experiment),
            ("POST", _MLFLOW + r"/experiments/create", self.mlflow_create_experiment),
            ("POST", _MLFLOW + r"/runs/create", self.mlflow_create_run),
            ("POST", _MLFLOW + r"/runs/update", self.mlflow_update_run),
            ("POST", _MLFLOW + r"/runs/search", self.mlflow_search_runs),
            ("GET", _WS + r"/computes/(?P<name>[^/]+)", self.get_compute),
            ("PUT", _WS + r"/computes/(?P<name>[^/]+)", self.put_compute),
            ("DELETE", _WS + r"/computes/(?P<name>[^/]+)", self.delete_compute),
            ("GET", _WS + r"/computes", self.list_computes),
            ("GET", _WS + r"/operationResults/(?P<name>[^/]+)", self.operation_result),
            ("GET", _WS + r"/datastores/(?P<name>[^/]+)", self.get_datastore),
            ("GET", _WS + r"/datastores", self.list_datastores),
            ("POST", _WS + r"/datastores/(?P<name>[^/]+)/listSecrets", self.list_datastore_secrets),
            ("GET", _WS + r"/data/(?P<name>[^/]+)/versions", self.list_data_versions),
            ("GET", _WS + r"/data/(?P<name>[^/]+)/versions/(?P<version>[^/]+)", self.get_data_version),
            ("PUT", _WS + r"/data/(?P<name>[^/]+)/versions/(?P<version>[^/]+)", self.put_data_version),
            ("GET", _WS + r"/data", self.list_data_containers),
            ("GET", _WS + r"/data/(?P<name>[^/]+)", self.get_data_container),
            ("PUT", _WS + r"/data/(?P<name>[^/]+)", self.put_data_container),
            ("GET", _WS + r"/models/(?P<name>[^/]+)/versions", self.list_model_versions),
            ("GET", _WS + r"/models/(?P<name>[^/]+)/versions/(?P<version>[^/]+)", self.get_model_version),
            ("PUT", _WS + r"/models/(?P<name>[^/]+)/versions/(?P<version>[^/]+)", self.put_model_version),
            ("GET", _WS + r"/models/(?P<name>[^/]+)", self.get_model),
        ] + self._core_routes(_WS) + self._pipeline_routes(_WS) + self._schedule_routes(_WS) + \
            self._batch_routes(_WS)

    def dispatch(self, method, path, query, headers, body):
        if path.startswith("/blob/"):
            return self._sas_refusal(query) or self.blobs.handle(method, path[len("/blob/"):], query, headers, body)
        if path.startswith("/keyvault/"):
            vault, _, rest = path[len("/keyvault/"):].partition("/")
            return self.vault.handle(method, vault, rest, headers, _json(body))
        if path.startswith(SCORING_PREFIX):  # a batch endpoint's scoring URI (its own host in the service)
            return self.invoke_batch_endpoint(method, path, headers, _json(body))
        if path.startswith("/mlflow-artifacts/") and method == "PUT":
            name, _, file = path[len("/mlflow-artifacts/"):].partition("/")
            return self.mlflow_put_artifact(name, file, body)
        for route_method, pattern, func in self._routes:
            match = pattern.match(path)
            if match and route_method == method:
                args = {k: v for k, v in match.groupdict().items() if k not in ("sub", "rg", "ws")}
                missing = self._missing_parent(path, match.groupdict())
                if missing:
                    return missing
                return func(query=query, body=_json(body), **args)
        return 404, {}, {"error": {"code": "NoRoute", "message": f"fake has no route for {method} {path}"}}

    def _missing_parent(self, path, groups):
        """ARM's 404s for a wrong resource group or workspace: the code says which, not the message.

        Shapes from https://learn.microsoft.com/azure/azure-resource-manager/troubleshooting/error-not-found
        (ResourceGroupNotFound, ResourceNotFound for the workspace itself, ParentResourceNotFound under it)."""
        if groups.get("rg") not in (None, self.resource_group):
            return _arm_error("ResourceGroupNotFound", f"Resource group '{groups['rg']}' could not be found.")
        if groups.get("ws") in (None, self.workspace_name):
            return None
        workspace = f"Microsoft.MachineLearningServices/workspaces/{groups['ws']}"
        if re.fullmatch(_WS, path):
            return _arm_error("ResourceNotFound", f"The Resource '{workspace}' under resource group "
                                                  f"'{groups['rg']}' was not found. For more details please go to "
                                                  "https://aka.ms/ARMResourceNotFoundFix")
        return _arm_error("ParentResourceNotFound", "Can not perform requested operation on nested resource. "
                                                    f"Parent resource '{groups['ws']}' not found.")

    # ---- workspace ----------------------------------------------------------------------------------
    def get_workspace(self, **_):
        host = self.base_url.split("://", 1)[1]
        details = self.workspace_details()
        return 200, {}, {
            "id": self.ws_id, "name": self.workspace_name, "location": "eastus",
            "type": "Microsoft.MachineLearningServices/workspaces", "sku": details["sku"], "tags": details["tags"],
            "identity": details["identity"],
            "properties": {"discoveryUrl": f"{self.base_url}/discovery", "workspaceId": "fake-workspace-id",
                           "mlFlowTrackingUri": f"azureml://{host}/mlflow/v1.0{self.ws_id}",
                           "friendlyName": self.workspace_name, **details["properties"]}}

    def get_discovery(self, **_):
        return 200, {}, {"api": self.base_url, "catalog": self.base_url, "experimentation": self.base_url,
                         "history": self.base_url, "modelmanagement": self.base_url, "pipelines": self.base_url,
                         "studio": "https://ml.azure.com"}

    # ---- code assets --------------------------------------------------------------------------------
    def list_code_versions(self, name, query, **_):
        wanted = query.get("hash")
        found = [c for c in self.codes.values() if c["properties"]["properties"].get("hash_sha256") == wanted]
        return 200, {}, {"value": found}

    def get_code_version(self, name, version, **_):
        item = self.codes.get((name, version))
        return (200, {}, item) if item else _not_found("Code", name)

    def start_upload(self, name, version, **_):
        container = f"fake-{uuid.uuid4().hex[:8]}"
        blob = f"{self.base_url}/blob/devstoreaccount1/{container}"
        return 200, {}, {"blobReferenceForConsumption": {"blobUri": blob, "storageAccountArmId": "fake",
                                                         "credential": {"credentialType": "SAS",
                                                                        "sasUri": blob + "?sv=fake&sig=fake"}},
                         "pendingUploadId": uuid.uuid4().hex, "pendingUploadType": "TemporaryBlobReference"}

    def put_code_version(self, name, version, body, **_):
        resource = {"id": f"{self.ws_id}/codes/{name}/versions/{version}", "name": version,
                    "type": "Microsoft.MachineLearningServices/workspaces/codes/versions",
                    "properties": body["properties"]}
        self.codes[(name, version)] = resource
        return 201, {}, resource

    # ---- environments -------------------------------------------------------------------------------
    def put_environment(self, name, version, body, **_):
        # Environment versions are immutable: the service answers 409 to a changed definition under an existing
        # version (azure-ai-ml's environments.create_or_update then retries with the container's nextVersion).
        known = self.environments.get((name, version))
        if known is not None and known["properties"] != body["properties"]:
            return _arm_error("Conflict", f"Environment {name}:{version} exists with another definition (fake)", 409)
        resource = {"id": f"{self.ws_id}/environments/{name}/versions/{version}", "name": version,
                    "properties": body["properties"]}
        self.environments[(name, version)] = resource
        return 201, {}, resource

    # Containers and version listings: the EnvironmentContainer / EnvironmentVersion resources of the generated ARM
    # client (properties latestVersion, nextVersion, isArchived); environments.list() reads GET .../environments,
    # create_or_update without a version reads the container's nextVersion, and 'name@latest' lists versions
    # ordered by createdtime desc (insertion order here).
    def _environment_versions(self, name):
        return [v for (n, _), v in self.environments.items() if n == name]

    def _environment_container(self, name):
        versions = self._environment_versions(name)
        if not versions:
            return None
        numbers = [int(v["name"]) for v in versions if v["name"].isdigit()]
        return {"id": f"{self.ws_id}/environments/{name}", "name": name,
                "properties": {"latestVersion": versions[-1]["name"], "isArchived": False,
                               "nextVersion": str(max(numbers, default=0) + 1)}}

    def list_environment_containers(self, **_):
        names = list(dict.fromkeys(n for (n, _) in self.environments))
        return 200, {}, {"value": [self._environment_container(n) for n in names]}

    def get_environment_container(self, name, **_):
        item = self._environment_container(name)
        return (200, {}, item) if item else _not_found("Environment", name)

    def list_environment_versions(self, name, **_):
        found = list(reversed(self._environment_versions(name)))
        if not found:  # as the recorded model 404 (UNVERIFIED.md: no recording of an environment's)
            return _user_error("EnvironmentNotFound", f"Environment container with name: {name} not found.")
        return 200, {}, {"value": found}

    def get_environment(self, name, version, **_):
        item = self.environments.get((name, version))
        return (200, {}, item) if item else _not_found("Environment", name)

    # ---- jobs ---------------------------------------------------------------------------------------
    def _job_resource(self, job: FakeJob) -> dict:
        if job.node is not None:  # a pipeline's child: the jobs endpoint has no properties for it
            return {"id": f"{self.ws_id}/jobs/{job.name}", "name": job.name, "properties": None,
                    "type": "Microsoft.MachineLearningServices/workspaces/jobs"}
        resource = copy.deepcopy(job.body)
        props = resource.setdefault("properties", {})
        props["status"] = job.current_status() if job.polls else "Starting"
        props["services"] = {"Studio": {"jobServiceType": "Studio", "endpoint": (
            f"https://ml.azure.com/runs/{job.name}?wsid={self.ws_id}")}}
        resource.update({"id": f"{self.ws_id}/jobs/{job.name}", "name": job.name,
                         "type": "Microsoft.MachineLearningServices/workspaces/jobs"})
        return resource

    def put_job(self, name, body, **_):
        if name in self.jobs:  # a PUT of an existing job updates it; it does not start a second one
            self.jobs[name].body = body
            return 200, {}, self._job_resource(self.jobs[name])
        self.job_creations += 1
        script = self.next_script or JobScript()
        self.jobs[name] = FakeJob(name, body, script)
        self.start_trials(name, body, script)
        if body["properties"].get("jobType") == "Pipeline":
            self.start_pipeline_children(name, body, script)
        return 201, {}, self._job_resource(self.jobs[name])

    def start_trials(self, name, body, script) -> None:
        """A sweep job (or a pipeline's sweep node): the service starts its trials, ``script.children``."""
        for index, (params, child_script) in enumerate(script.children):
            props = body["properties"]
            compute = (props.get("trial") or {}).get("computeId") or props.get("computeId")
            child_body = {"properties": {"jobType": "Command", "experimentName": props.get("experimentName"),
                                         "computeId": compute,
                                         "tags": {}, "properties": {}}}
            child = f"{name}_{index}"
            # The service records each trial's hyperparameters (v2 search-space names) as a tag of the sweep run,
            # keyed by the trial: _aml_system_<trial> (azureml-train-core's HyperDriveRun reads it, and <trial>).
            body["properties"].setdefault("tags", {})[script.trial_tag_prefix + child] = json.dumps(params)
            self.jobs[child] = FakeJob(child, child_body, child_script, parent=name)

    def get_job(self, name, **_):
        job = self.jobs.get(name)
        if job is None:
            return _not_found("Job", name)
        job.status()
        for child in self.pipeline_children(name):  # the steps move on as the pipeline does
            child.status()
        return 200, {}, self._job_resource(job)

    def list_jobs(self, **_):
        return 200, {}, {"value": [self._job_resource(j) for j in self.jobs.values()]}

    def cancel_job(self, name, **_):
        job = self.jobs.get(name)
        if job is None:
            return _not_found("Job", name)
        job.canceled = True
        return 202, {"Location": f"{self.base_url}{self.ws_id}/operationResults/cancel-{name}"}, None

    def operation_result(self, name, **_):
        return 200, {}, None

    # ---- computes, datastores -----------------------------------------------------------------------
    def _compute_resource(self, name, props):
        return {"id": f"{self.ws_id}/computes/{name}", "name": name, "location": "eastus",
                "type": "Microsoft.MachineLearningServices/workspaces/computes", "properties": props}

    def get_compute(self, name, **_):
        props = self.computes.get(name)
        if props:
            return 200, {}, self._compute_resource(name, props)
        # The message names the workspace, as the service's does: clients must decide from the code.
        return _arm_error("ResourceNotFound", f"Compute {name} not found in workspace {self.workspace_name}.")

    def put_compute(self, name, body, **_):
        props = copy.deepcopy(body.get("properties", {}))
        props["provisioningState"] = "Succeeded"
        props.setdefault("properties", {}).update(runtime_properties(props.get("computeType")))
        self.computes[name] = props
        return 200, {}, self._compute_resource(name, props)

    def delete_compute(self, name, **_):
        self.computes.pop(name, None)
        return 200, {}, None

    def list_computes(self, **_):
        return 200, {}, {"value": [self._compute_resource(n, p) for n, p in self.computes.items()]}

    def _datastore_resource(self, name, default):
        props = self.registered_datastores.get(name) or {
            "datastoreType": "AzureBlob", "accountName": "fakeaccount", "containerName": "azureml-blobstore-fake",
            "endpoint": "core.windows.net", "protocol": "https", "credentials": {"credentialsType": "AccountKey"},
            "serviceDataAccessAuthIdentity": "WorkspaceSystemAssignedIdentity"}
        # The recorded shape (tests/recordings: datastore-get): ARM type, the owner's ids, systemData.
        return {"id": f"{self.ws_id}/datastores/{name}", "name": name,
                "type": "Microsoft.MachineLearningServices/workspaces/datastores",
                "properties": {"description": None, "tags": None, "properties": None, **props, "isDefault": default,
                               "subscriptionId": self.subscription_id, "resourceGroup": self.resource_group},
                "systemData": {"createdAt": "2026-01-01T00:00:00.0000000+00:00",
                               "lastModifiedAt": "2026-01-01T00:00:00.0000000+00:00",
                               "lastModifiedBy": "fake", "lastModifiedByType": "Application"}}

    def get_datastore(self, name, **_):
        if name not in self.datastores and name not in self.registered_datastores:
            return _not_found("Datastore", name)
        return 200, {}, self._datastore_resource(name, self.datastores.get(name, False))

    def list_datastores(self, query, **_):
        names = list(self.datastores) + sorted(self.registered_datastores)
        items = [self._datastore_resource(n, self.datastores.get(n, False)) for n in names
                 if query.get("isDefault", "").lower() != "true" or self.datastores.get(n, False)]
        return 200, {}, {"value": items}

    sas_lifetime_seconds: float | None = None  # None: the hours the client asked for (expireAfterHours)
    sas_max_requests: int | None = None  # a SAS stops working after this many blob requests (it "expired")

    def _sas_refusal(self, query):
        """Storage's 403 for a SAS past its ``se`` time (or used up, for tests): AuthenticationFailed."""
        signature = query.get("sig")
        if not signature:
            return None
        uses = self.__dict__.setdefault("_sas_uses", {})
        uses[signature] = uses.get(signature, 0) + 1
        expiry = query.get("se")
        expired = bool(expiry) and expiry < time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        if expired or (self.sas_max_requests is not None and uses[signature] > self.sas_max_requests):
            return 403, {"x-ms-error-code": "AuthenticationFailed", "Content-Type": "application/xml"}, (
                "<?xml version=\"1.0\" encoding=\"utf-8\"?><Error><Code>AuthenticationFailed</Code><Message>Server "
                "failed to authenticate the request. Signed expiry time has to be after signed start time.</Message>"
                "</Error>")
        return None

    def list_datastore_secrets(self, name, body=None, **_):
        if name not in self.datastores:
            return _not_found("Datastore", name)
        if (body or {}).get("expirableSecret"):  # recorded: a SAS, even for an account-key datastore
            lifetime = self.sas_lifetime_seconds or 3600 * float(body.get("expireAfterHours") or 1)
            self.sas_issued = getattr(self, "sas_issued", 0) + 1
            expiry = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() + lifetime))
            return 200, {}, {"secretsType": "Sas", "sasToken": f"?sv=2026-02-06&sig=fake{self.sas_issued}&se={expiry}"
                                                                 "&srt=co&ss=bf&sp=rcuwdl"}
        return 200, {}, {"secretsType": "AccountKey", "key": "ZmFrZS1rZXk="}

    # ---- data assets (v1 datasets) -------------------------------------------------------------------
    def list_data_versions(self, name, query=None, **_):
        if name in self.archived_data and (query or {}).get("listViewType", "ActiveOnly") == "ActiveOnly":
            return 200, {}, {"value": []}
        items = sorted((v for (n, _), v in self.data_assets.items() if n == name), key=lambda r: -int(r["name"]))
        if not items:  # as the recorded model 404 (UNVERIFIED.md: no recording of a data asset's)
            return _user_error("DataNotFound", f"Data container with name: {name} not found.")
        if (query or {}).get("$top"):
            items = items[: int(query["$top"])]
        return 200, {}, {"value": items}

    def get_data_version(self, name, version, **_):
        item = self.data_assets.get((name, version))
        return (200, {}, item) if item else _not_found("Data", name)

    def put_data_version(self, name, version, body, **_):
        properties = dict(body["properties"])
        # The service answers datastore paths in the long, workspace-scoped form (azure-ai-ml's LONG_URI_FORMAT).
        properties["dataUri"] = re.sub(
            r"^azureml://datastores/", f"azureml://subscriptions/{self.subscription_id}/resourcegroups/"
                                       f"{self.resource_group}/workspaces/{self.workspace_name}/datastores/",
            properties.get("dataUri") or "")
        resource = {"id": f"{self.ws_id}/data/{name}/versions/{version}", "name": version,
                    "properties": properties}
        self.data_assets[(name, version)] = resource
        return 201, {}, resource

    # Containers: the DataContainer resource of the REST API (azure-ai-ml's _restclient models DataContainer /
    # DataContainerProperties: dataType, description, tags, isArchived, latestVersion, nextVersion); the SDK's
    # data.list() reads GET .../data, and data.archive(name) does GET then PUT .../data/<name> with isArchived.
    def _data_container(self, name):
        versions = [int(v) for (n, v) in self.data_assets if n == name]
        if not versions:
            return None
        latest = self.data_assets[(name, str(max(versions)))]["properties"]
        return {"id": f"{self.ws_id}/data/{name}", "name": name,
                "properties": {"dataType": latest.get("dataType", "uri_folder"),
                               "isArchived": name in self.archived_data,
                               "latestVersion": str(max(versions)), "nextVersion": str(max(versions) + 1)}}

    def list_data_containers(self, query=None, **_):
        names = sorted({n for (n, _) in self.data_assets})
        active = (query or {}).get("listViewType", "ActiveOnly") == "ActiveOnly"
        shown = [n for n in names if not (active and n in self.archived_data)]
        return 200, {}, {"value": [self._data_container(n) for n in shown]}

    def get_data_container(self, name, **_):
        item = self._data_container(name)
        return (200, {}, item) if item else _not_found("Data", name)

    def put_data_container(self, name, body, **_):
        if (body.get("properties") or {}).get("isArchived"):
            self.archived_data.add(name)
        else:
            self.archived_data.discard(name)
        return 200, {}, self._data_container(name)

    # ---- models -------------------------------------------------------------------------------------
    def list_model_versions(self, name, query=None, **_):
        items = sorted((v for (n, _), v in self.models.items() if n == name), key=lambda r: -int(r["name"]))
        if not items:  # recorded: an unknown model's versions list is a 404, not an empty page
            return _user_error("ModelNotFound", f"Model container with name: {name} not found.")
        if (query or {}).get("$top"):
            items = items[: int(query["$top"])]
        return 200, {}, {"value": items}

    def get_model_version(self, name, version, **_):
        item = self.models.get((name, version))
        return (200, {}, item) if item else _user_error("ModelNotFound", f"Model container with name: {name} "
                                                                          "not found.")

    def get_model(self, name, **_):
        versions = [int(v) for (n, v) in self.models if n == name]
        if not versions:
            return _user_error("ModelNotFound", f"Model container with name: {name} not found.")
        return 200, {}, {"id": f"{self.ws_id}/models/{name}", "name": name,
                         "properties": {"latestVersion": str(max(versions)), "nextVersion": str(max(versions) + 1)}}

    def put_model_version(self, name, version, body, **_):
        properties = {"flavors": {}, **body["properties"]}  # the service always answers with flavors
        resource = {"id": f"{self.ws_id}/models/{name}/versions/{version}", "name": version,
                    "properties": properties}
        self.models[(name, version)] = resource
        return 201, {}, resource


def _json(body: bytes):
    if not body:
        return None
    try:
        return json.loads(body)
    except ValueError:
        return None
