"""An Azure ML workspace's publishing services (``acpt_estimator.services``): published pipelines are registered
pipeline components (``publishing``), pipeline endpoints batch endpoints (``pipeline_endpoints``), schedules v2
JobSchedules fired by the service (``schedules``)."""

from __future__ import annotations

from ...refusal import refuse

ENDPOINT_REPLACEMENT = (
    "PipelineEndpoint.publish(ws, name, description, published_pipeline): a v2 batch endpoint whose deployment runs "
    "the published pipeline's component; its scoring URI is then this pipeline's endpoint (POST a batch job to it, "
    "or ml_client.batch_endpoints.invoke(endpoint_name, inputs=...))")


class CloudPublishedPipelines:
    def __init__(self, workspace):
        self.workspace = workspace

    def publish(self, spec, name, description, version, continue_on_step_failure) -> dict:
        from . import publishing

        return publishing.publish(self.workspace, spec, name, description, version, continue_on_step_failure)

    def get(self, published_id) -> dict:
        from . import publishing

        return publishing.get(self.workspace, published_id)

    def list(self, active_only=True) -> list:
        from . import publishing

        return publishing.all_published(self.workspace, active_only)

    def set_status(self, published_id, status) -> dict:
        """``Disabled``: the component version is archived; ``Active``: restored."""
        from . import publishing

        return publishing.set_status(self.workspace, published_id, status)

    def spec(self, record):
        return record["spec"]

    def endpoint(self, published_id, component_id) -> str:
        """The scoring URI of the batch endpoint (PipelineEndpoint) deploying it; refused when none does."""
        from . import pipeline_endpoints

        uri = pipeline_endpoints.scoring_uri_of(self.workspace, published_id)
        if uri is None:
            refuse("PublishedPipeline.endpoint", f"published pipeline {published_id!r} is v2 pipeline component "
                   f"{component_id}, which has no REST URL of its own, and no batch endpoint deploys it.",
                   ENDPOINT_REPLACEMENT)
        return uri

    def submit(self, record, experiment, values, continue_on_step_failure):
        from . import publishing

        return publishing.submit(self.workspace, experiment, record, values, bool(continue_on_step_failure))


class CloudPipelineEndpoints:
    """Batch endpoints whose deployments are published pipeline components; a v2 endpoint is always active."""

    def __init__(self, workspace):
        self.workspace = workspace

    def publish(self, name, description, published_id) -> dict:
        from . import pipeline_endpoints, publishing

        return pipeline_endpoints.publish(self.workspace, name, description,
                                          publishing.get(self.workspace, published_id))

    def get(self, name) -> dict:
        from . import pipeline_endpoints

        return pipeline_endpoints.get(self.workspace, name)

    def list(self) -> list:
        from . import pipeline_endpoints

        return pipeline_endpoints.all_endpoints(self.workspace)

    def add(self, name, published_id, make_default) -> dict:
        """A new deployment of the published pipeline's component (the endpoint's default when ``make_default``)."""
        from . import pipeline_endpoints, publishing

        return pipeline_endpoints.add(self.workspace, name, publishing.get(self.workspace, published_id),
                                      make_default)

    def set_default(self, name, version) -> dict:
        from . import pipeline_endpoints

        return pipeline_endpoints.set_default(self.workspace, name, version)

    def rename(self, name, new_name) -> dict:
        from .pipeline_endpoints import endpoint_name

        refuse("PipelineEndpoint.set_name", f"pipeline endpoint {name!r} is v2 batch endpoint "
               f"{endpoint_name(name)!r}, and a v2 endpoint's name cannot change.", "PipelineEndpoint.publish(ws, "
               "new_name, description, pipeline) with the same published pipelines, then delete the old endpoint "
               f"with ml_client.batch_endpoints.begin_delete({endpoint_name(name)!r})")

    def set_status(self, name, status) -> dict:
        """Active: nothing to change; Disabled/Archived: refused (v2 batch endpoints have no such state)."""
        from .pipeline_endpoints import endpoint_name

        if status == "Active":
            return self.get(name)
        what, endpoint = {"Disabled": "disable", "Archived": "archive"}[status], endpoint_name(name)
        refuse(f"PipelineEndpoint.{what}", f"pipeline endpoint {name!r} is v2 batch endpoint {endpoint!r}, and v2 "
               "batch endpoints have no disabled or archived state: anyone allowed to invoke it can.",
               f"delete it with ml_client.batch_endpoints.begin_delete({endpoint!r}) (not reversible: publish it "
               "again to bring it back), or disable the published pipelines it deploys (PublishedPipeline."
               "disable(): their components are archived, and submit() through this endpoint refuses)")

    def submit(self, record, version, published, experiment, values):
        """Invoke the batch endpoint's deployment of ``version``: the service starts a pipeline job."""
        from . import pipeline_endpoints

        return pipeline_endpoints.submit(self.workspace, experiment, record, version, published, values)


class CloudSchedules:
    """v2 JobSchedules with a RecurrenceTrigger; each change is waited for (within ``wait_timeout``)."""

    def __init__(self, workspace):
        self.workspace = workspace

    def create(self, name, published, experiment_name, recurrence, description, pipeline_parameters, values_of,
               continue_on_step_failure, wait_timeout, endpoint_id=None, endpoint=None) -> dict:
        """A JobSchedule of ``published`` (for an endpoint: its default version now, as a v2 schedule names a job:
        a later set_default does not move it, as v1's did, and a warning says so)."""
        import warnings

        from . import schedules

        created = schedules.create(self.workspace, name, published, values_of(published["spec"]), experiment_name,
                                   recurrence, description, continue_on_step_failure, wait_timeout,
                                   endpoint=endpoint_id)
        if endpoint:
            warnings.warn(f"Schedule.create_for_pipeline_endpoint: the v2 job schedule {name!r} submits published "
                          f"pipeline {published['id']} (version {endpoint['defaultVersion']}, the default of endpoint "
                          f"{endpoint['name']!r} now); v2 schedules name a job, not an endpoint, so a later "
                          "set_default does not change it. Instead: after set_default, update the schedule's job or "
                          "create it again.", stacklevel=4)
        return created

    def get(self, schedule_id) -> dict:
        from . import schedules

        return schedules.get(self.workspace, schedule_id)

    def list(self, active_only=True) -> list:
        from . import schedules

        return schedules.all_schedules(self.workspace, active_only)

    def update(self, schedule_id, name, description, recurrence, pipeline_parameters, values_of, status,
               continue_on_step_failure, wait_timeout) -> dict:
        from . import publishing, schedules

        values = None
        if pipeline_parameters is not None:
            record = schedules.get(self.workspace, schedule_id)
            values = values_of(publishing.get(self.workspace, record["pipelineId"])["spec"])
        return schedules.update(self.workspace, schedule_id, name, description, recurrence, values, status,
                                continue_on_step_failure, wait_timeout)

    def set_enabled(self, schedule_id, enabled, wait_timeout) -> dict:
        from . import schedules

        return schedules.set_enabled(self.workspace, schedule_id, enabled, wait_timeout)

    def runs(self, schedule_id) -> tuple:
        refuse("Schedule.get_pipeline_runs", "on Azure ML the service starts the schedule's jobs and this release "
               "does not list them.", f"the studio's Jobs > Schedules > {schedule_id} page, or the jobs whose display "
               f"name contains the schedule's name: [j for j in ml_client.jobs.list() if {schedule_id!r} in "
               "(j.display_name or '')] (az ml job list --query \"[?contains(display_name,'<schedule>')]\")")
