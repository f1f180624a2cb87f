"""The fake's registered components (versions, listings, archive) and job schedules (create as a long-running
operation, get, list, enable/disable through a PUT of the whole schedule).

Shapes: the recorded exchanges of azure-ai-ml's schedule end-to-end tests (Azure/azure-sdk-assets,
python/sdk/ml/azure-ai-ml/tests/recordings/schedule/e2etests/test_schedule.pyTestScheduletest_schedule_lifetime.json):
PUT schedules/<name> answers 201 with Azure-AsyncOperation and Location headers and the schedule's ``properties``
(provisioningState Creating; the job definition NotStarted), replayed by tests/recordings/excerpts/schedule-put.json;
the operation status is {id, name, status} (excerpt schedule-operation-status.json); GET answers the schedule with
provisioningState Succeeded; the list's items carry name, properties and systemData. Component listings and the
archive flag: the generated ARM client (ComponentContainer, ComponentVersion; isArchived), see UNVERIFIED.md.
"""

from __future__ import annotations

import copy
import uuid

_SYSTEM = {"createdAt": "2026-01-01T00:00:00+00:00", "createdBy": "Fake User", "createdByType": "User",
           "lastModifiedAt": "2026-01-01T00:00:00+00:00", "lastModifiedBy": "Fake User",
           "lastModifiedByType": "User"}
_OPS = r"/subscriptions/(?P<sub>[^/]+)/providers/Microsoft\.MachineLearningServices/locations/(?P<loc>[^/]+)"


class SchedulesMixin:
    """Handlers over ``self.components`` (listings) and ``self.schedules``; mixed into FakeState."""

    def _schedule_routes(self, ws_pattern):
        return [
            ("GET", ws_pattern + r"/components/(?P<name>[^/]+)/versions", self.list_component_versions),
            ("GET", ws_pattern + r"/components/(?P<name>[^/]+)", self.get_component_container),
            ("GET", ws_pattern + r"/components", self.list_component_containers),
            ("PUT", ws_pattern + r"/schedules/(?P<name>[^/]+)", self.put_schedule),
            ("GET", ws_pattern + r"/schedules/(?P<name>[^/]+)", self.get_schedule),
            ("GET", ws_pattern + r"/schedules", self.list_schedules),
            ("GET", _OPS + r"/mfeOperationsStatus/(?P<name>[^/]+)", self.mfe_operation_status),
        ]

    # ---- components -----------------------------------------------------------------------------------
    def _named_versions(self, name, query):
        view = (query or {}).get("listViewType", "ActiveOnly")
        found = [v for (n, _), v in self.components.items() if n == name
                 and not v["properties"].get("isAnonymous")]
        if view == "ActiveOnly":
            found = [v for v in found if not v["properties"].get("isArchived")]
        elif view == "ArchivedOnly":
            found = [v for v in found if v["properties"].get("isArchived")]
        return found

    def list_component_versions(self, name, query, **_):
        return 200, {}, {"value": list(reversed(self._named_versions(name, query)))}  # newest first

    def _component_container(self, name):
        versions = self._named_versions(name, {"listViewType": "All"})
        if not versions:
            return None
        numbers = [int(v["name"]) for v in versions if v["name"].isdigit()]
        return {"id": f"{self.ws_id}/components/{name}", "name": name,
                "type": "Microsoft.MachineLearningServices/workspaces/components",
                "properties": {"description": None, "tags": {}, "properties": {}, "latestVersion": versions[-1]["name"],
                               "nextVersion": str(max(numbers, default=0) + 1),
                               "isArchived": all(v["properties"].get("isArchived") for v in versions)},
                "systemData": dict(_SYSTEM)}

    def get_component_container(self, name, **_):
        from .history import _not_found

        container = self._component_container(name)
        return (200, {}, container) if container else _not_found("Component", name)

    def list_component_containers(self, query, **_):
        view = (query or {}).get("listViewType", "ActiveOnly")
        names = dict.fromkeys(n for (n, _), v in self.components.items() if not v["properties"].get("isAnonymous"))
        containers = [self._component_container(n) for n in names]
        if view == "ActiveOnly":
            containers = [c for c in containers if not c["properties"]["isArchived"]]
        return 200, {}, {"value": containers}

    def pipeline_component_jobs(self, component_id: str) -> dict:
        """The nodes of a registered pipeline component (a pipeline job that names it runs them)."""
        for (name, version), resource in self.components.items():
            if component_id.endswith(f"/components/{name}/versions/{version}"):
                return copy.deepcopy((resource["properties"].get("componentSpec") or {}).get("jobs") or {})
        return {}

    # ---- schedules ------------------------------------------------------------------------------------
    def _schedule_resource(self, name):
        return {"id": f"{self.ws_id}/schedules/{name}", "name": name,
                "type": "Microsoft.MachineLearningServices/workspaces/schedules",
                "properties": self.schedules[name], "systemData": dict(_SYSTEM)}

    def put_schedule(self, name, body, **_):
        props = copy.deepcopy(body.get("properties") or {})
        props.setdefault("isEnabled", True)
        job = (props.get("action") or {}).get("jobDefinition")
        if job is not None:  # as the recorded answer: the job to create, not started, in "Default" unless named
            job.setdefault("status", "NotStarted")
            job.setdefault("experimentName", "Default")
            for field in ("description", "services", "identity", "componentId", "notificationSetting",
                          "secretsConfiguration", "sourceJobId"):
                job.setdefault(field, None)
            for value in (job.get("inputs") or {}).values():
                value.setdefault("description", None)
        props["provisioningState"] = "Succeeded"
        self.schedules[name] = props
        operation = f"s:{uuid.uuid4()}"
        ops = f"{self.base_url}/subscriptions/{self.subscription_id}/providers/Microsoft.MachineLearningServices/" \
              f"locations/eastus/mfeOperationsStatus/{operation}?api-version=2023-06-01-preview"
        headers = {"Azure-AsyncOperation": ops, "x-ms-async-operation-timeout": "PT30M",
                   "Location": f"{self.base_url}{self.ws_id}/schedules/{name}?api-version=2023-06-01-preview"}
        answer = dict(copy.deepcopy(props), provisioningState="Creating")
        return 201, headers, {"properties": answer}

    def mfe_operation_status(self, name, **_):
        location = f"/subscriptions/{self.subscription_id}/providers/Microsoft.MachineLearningServices/locations/eastus"
        return 200, {}, {"id": f"{location}/mfeOperationResults/{name}", "name": name, "status": "Succeeded"}

    def get_schedule(self, name, **_):
        from .history import _not_found

        return (200, {}, self._schedule_resource(name)) if name in self.schedules else _not_found("Schedule", name)

    def list_schedules(self, query, **_):
        view = (query or {}).get("listViewType", "EnabledOnly")
        items = [{"name": n, "properties": p, "systemData": dict(_SYSTEM)} for n, p in self.schedules.items()
                 if view == "All" or p.get("isEnabled") == (view == "EnabledOnly")]
        return 200, {}, {"value": items}
