"""v1 ``PipelineEndpoint``: one name over versions of published pipelines (local store; on Azure ML a v2 batch
endpoint whose deployments are the published pipeline components); submit runs the default."""

from __future__ import annotations

from acpt_estimator.services import services_for
from acpt_estimator.v1.pipeline.core.published_pipeline import PublishedPipeline
from acpt_estimator.v1.pipeline.core.run import PipelineRun


class PipelineIdVersion:
    def __init__(self, version, pipeline_id):
        self._version, self._pipeline_id = version, pipeline_id

    version = property(lambda self: self._version)
    pipeline_id = property(lambda self: self._pipeline_id)


class PipelineVersion:
    def __init__(self, version, pipeline):
        self._version, self._pipeline = version, pipeline

    version = property(lambda self: self._version)
    pipeline = property(lambda self: self._pipeline)


class PipelineEndpoint:
    """A named endpoint whose versions are published pipelines; ``submit`` runs the default version."""

    def __init__(self, workspace, id, name, description, status, default_version, endpoint, pipeline_version_list,
                 _pipeline_endpoint_provider=None, _published_pipeline_provider=None, _swaggerurl=None):
        self._workspace, self._id, self._name, self._description = workspace, id, name, description
        self._status, self._default_version, self._endpoint = status, default_version, endpoint
        self._versions = list(pipeline_version_list or [])

    @classmethod
    def _from_record(cls, record, workspace):
        versions = [PipelineIdVersion(v, pid) for v, pid in record["versions"].items()]
        return cls(workspace, record["id"], record["name"], record["description"], record["status"],
                   record["defaultVersion"], record["endpoint"], versions)

    id = property(lambda self: self._id)
    name = property(lambda self: self._name)
    description = property(lambda self: self._description)
    status = property(lambda self: self._status)
    default_version = property(lambda self: self._default_version)
    endpoint = property(lambda self: self._endpoint)
    swaggerurl = property(lambda self: None)
    pipeline_version_list = property(lambda self: list(self._versions))

    def _endpoints(self):
        return services_for(self._workspace).pipeline_endpoints

    def _record(self):
        return self._endpoints().get(self._name)

    def _save(self, record):
        self.__dict__.update(PipelineEndpoint._from_record(record, self._workspace).__dict__)

    @staticmethod
    def publish(workspace, name, description, pipeline, _workflow_provider=None, _service_endpoint=None, **kwargs):
        """A new endpoint whose version "0" (the default) is ``pipeline`` (a PublishedPipeline); on Azure ML a batch
        endpoint whose default deployment is the published pipeline's component."""
        record = services_for(workspace).pipeline_endpoints.publish(name, description, _pipeline_id(pipeline))
        return PipelineEndpoint._from_record(record, workspace)

    @staticmethod
    def get(workspace, id=None, name=None, _workflow_provider=None, _service_endpoint=None):
        if not (name or id):
            raise ValueError("PipelineEndpoint.get(ws, id=None, name=None): name the endpoint (name=...) or give "
                             "its id (PipelineEndpoint.list(ws) shows both).")
        return PipelineEndpoint._from_record(services_for(workspace).pipeline_endpoints.get(name or id), workspace)

    @staticmethod
    def list(workspace, active_only=True, max_results=100, _workflow_provider=None, _service_endpoint=None):
        records = services_for(workspace).pipeline_endpoints.list()
        return [PipelineEndpoint._from_record(r, workspace) for r in records
                if not active_only or r["status"] == "Active"][:max_results]

    @staticmethod
    def get_all(workspace, active_only=True, _workflow_provider=None, _service_endpoint=None):
        return PipelineEndpoint.list(workspace, active_only)

    def add(self, pipeline):
        """One more version (the highest plus one) running ``pipeline``."""
        self._save(self._endpoints().add(self._name, _pipeline_id(pipeline), False))

    def add_default(self, pipeline):
        """One more version running ``pipeline``, made the default."""
        self._save(self._endpoints().add(self._name, _pipeline_id(pipeline), True))

    def set_default(self, pipeline):
        record = self._record()
        wanted = _pipeline_id(pipeline)
        version = next((v for v, pid in record["versions"].items() if pid == wanted), None)
        if version is None:
            raise ValueError(f"Pipeline {wanted} is not a version of endpoint {self._name!r}; add() it first.")
        self.set_default_version(version)

    def set_default_version(self, version):
        record = self._record()
        if str(version) not in record["versions"]:
            raise ValueError(f"Endpoint {self._name!r} has versions {sorted(record['versions'])}, not {version!r}.")
        self._save(self._endpoints().set_default(self._name, version))

    def get_default_version(self):
        return self._record()["defaultVersion"]

    def get_pipeline(self, version=None):
        record = self._record()
        pid = record["versions"][str(version) if version is not None else record["defaultVersion"]]
        return PublishedPipeline.get(self._workspace, pid)

    def get_all_pipelines(self, active_only=True, _service_endpoint=None):
        pipelines = [PublishedPipeline.get(self._workspace, pid) for pid in self._record()["versions"].values()]
        return [p for p in pipelines if not active_only or p.status == "Active"]

    list_pipelines = get_all_pipelines

    def get_all_versions(self, _workflow_provider=None, _service_endpoint=None):
        return [PipelineVersion(v, PublishedPipeline.get(self._workspace, pid))
                for v, pid in self._record()["versions"].items()]

    list_versions = get_all_versions

    def set_name(self, name):
        self._save(self._endpoints().rename(self._name, name))

    def submit(self, experiment_name, pipeline_parameters=None, parent_run_id=None, pipeline_version=None):
        """Run the endpoint's version ``pipeline_version`` (the default unless named): on Azure ML the batch
        endpoint's deployment of it is invoked (a pipeline job)."""
        from acpt_estimator.v1 import _params
        from acpt_estimator.v1.core.experiment import Experiment
        from acpt_estimator.v1.pipeline.core._submit import parameter_values

        _params.check("PipelineEndpoint.submit", parent_run_id=parent_run_id)
        record = self._record()
        version = str(pipeline_version) if pipeline_version is not None else record["defaultVersion"]
        if version not in record["versions"]:
            raise ValueError(f"PipelineEndpoint.submit(pipeline_version={pipeline_version!r}): endpoint "
                             f"{self._name!r} has versions {sorted(record['versions'], key=int)}.")
        published_pipelines = services_for(self._workspace).published_pipelines
        published = published_pipelines.get(record["versions"][version])
        if published["status"] != "Active":
            raise ValueError(f"Published pipeline {published['id']} (version {version} of endpoint {self._name!r}) "
                             "is Disabled; enable() it first.")
        experiment = Experiment(self._workspace, experiment_name)
        values = parameter_values(published_pipelines.spec(published), pipeline_parameters)
        handle = self._endpoints().submit(record, version, published, experiment, values)
        return PipelineRun._of_pipeline(experiment, handle)

    def _set_status(self, status):
        self._save(self._endpoints().set_status(self._name, status))

    def disable(self):
        self._set_status("Disabled")

    def enable(self):
        self._set_status("Active")

    def archive(self):
        self._set_status("Archived")

    def reactivate(self, name):
        """v1: active again, under ``name`` (v1 sets the name with the status); returns this endpoint."""
        if name != self._name:
            self.set_name(name)
        self._set_status("Active")
        return self


def _pipeline_id(pipeline):
    if isinstance(pipeline, PublishedPipeline):
        return pipeline.id
    raise ValueError(f"pipeline={type(pipeline).__name__}: pass a PublishedPipeline (pipeline.publish(name)).")


__all__ = ["PipelineEndpoint", "PipelineIdVersion", "PipelineRun", "PipelineVersion", "PublishedPipeline"]
