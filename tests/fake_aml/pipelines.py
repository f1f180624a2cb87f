"""The fake's pipeline side: anonymous components and the child job the service starts for each pipeline node.

Shapes: azure-ai-ml's generated ARM client (_restclient/arm_ml_service operations/_operations.py
build_component_versions_create_or_update_request / _get_request: PUT/GET components/<name>/versions/<version>,
models ComponentVersion), and how jobs.get reads a pipeline's child: the jobs endpoint answers a resource without
properties (entities/_job/job.py _is_pipeline_child_job), and the SDK then reads run history's Run
(operations/_job_operations.py get -> _runs_operations.get_run). A child's run carries the node it ran
(properties azureml.nodeid, azureml.pipelinerunid, as the service records for step runs).
"""

from __future__ import annotations

import copy
import uuid


class PipelinesMixin:
    """Handlers over ``self.components`` and the pipeline children in ``self.jobs``; mixed into FakeState."""

    def _pipeline_routes(self, ws_pattern):
        return [
            ("PUT", ws_pattern + r"/components/(?P<name>[^/]+)/versions/(?P<version>[^/]+)", self.put_component),
            ("GET", ws_pattern + r"/components/(?P<name>[^/]+)/versions/(?P<version>[^/]+)", self.get_component),
        ]

    def put_component(self, name, version, body, **_):
        resource = {"id": f"{self.ws_id}/components/{name}/versions/{version}", "name": version,
                    "type": "Microsoft.MachineLearningServices/workspaces/components/versions",
                    "properties": dict(copy.deepcopy(body.get("properties") or {}), provisioningState="Succeeded"),
                    "systemData": {"createdAt": "2026-01-01T00:00:00Z", "createdBy": "Fake User"}}
        self.components[(name, version)] = resource
        return 201, {}, resource

    def get_component(self, name, version, **_):
        from .history import _not_found

        item = self.components.get((name, version))
        return (200, {}, item) if item else _not_found("Component", name)

    def start_pipeline_children(self, name, body, script) -> None:
        """The service starts one child job per node; ``script.nodes`` (node -> JobScript) says how each goes."""
        from .state import FakeJob, JobScript

        props = body["properties"]
        jobs = props.get("jobs") or (self.pipeline_component_jobs(props["componentId"]) if props.get("componentId")
                                     else {})  # a job of a registered pipeline component runs the component's nodes
        for node, spec in jobs.items():
            child = str(uuid.uuid4())
            sweep = spec.get("type") == "sweep"  # a sweep node's step run is a sweep job, its trials its children
            child_body = {"properties": {
                "jobType": "Sweep" if sweep else "Command", "experimentName": props.get("experimentName"),
                "displayName": spec.get("display_name") or spec.get("displayName") or node,
                "computeId": spec.get("computeId") or (props.get("settings") or {}).get("default_compute"),
                "tags": {}, "properties": {"azureml.nodeid": node, "azureml.pipelinerunid": name,
                                           "azureml.runsource": "azureml.StepRun", "azureml.pipeline": name}}}
            node_script = (script.nodes or {}).get(node) or JobScript()
            self.jobs[child] = FakeJob(child, child_body, node_script, parent=name, node=node)
            if sweep:
                child_body["properties"]["trial"] = {"computeId": spec.get("computeId")}
                self.start_trials(child, child_body, node_script)

    def pipeline_children(self, name) -> list:
        return [j for j in self.jobs.values() if j.parent == name and j.node is not None]
