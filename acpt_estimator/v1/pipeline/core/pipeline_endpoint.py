"""v1 ``PipelineEndpoint``: one name over versions of published pipelines (local store; on Azure ML a v2 batch
endpoint whose deployments are the published pipeline components); submit runs the default."""

from __future__ import annotations

import time

from acpt_estimator.pipelines import published as store
from acpt_estimator.v1._refusal import refuse
from acpt_estimator.v1.pipeline.core.published_pipeline import PublishedPipeline
from acpt_estimator.v1.pipeline.core.run import PipelineRun

from ._publishing import in_cloud


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
        from acpt_estimator.backends.local.store import file_uri

        versions = [PipelineIdVersion(v, pid) for v, pid in record["versions"].items()]
        if "endpoint" in record:  # Azure ML: the batch endpoint's name and scoring URI
            return cls(workspace, record["id"], record["name"], record["description"], record["status"],
                       record["defaultVersion"], record["endpoint"], versions)
        return cls(workspace, record["name"], record["name"], record["description"], record["status"],
                   record["defaultVersion"], file_uri(store.endpoint_path(record["name"])), versions)

    id = property(lambda self: self._id)
    name = property(lambda self: self._name)
    description = property(lambda self: self._description)
    status = property(lambda self: self._status)
    default_version = property(lambda self: self._default_version)
    endpoint = property(lambda self: self._endpoint)
    swaggerurl = property(lambda self: None)
    pipeline_version_list = property(lambda self: list(self._versions))

    def _record(self):
        if in_cloud(self._workspace):
            return _cloud().get(self._workspace, self._name)
        record = store.get_endpoint(self._name)
        if record is None:
            raise ValueError(f"Pipeline endpoint {self._name!r} is not in the local store.")
        return record

    def _save(self, record):
        if not in_cloud(self._workspace):
            store.save_endpoint(record)
        self.__dict__.update(PipelineEndpoint._from_record(record, self._workspace).__dict__)

    @staticmethod
    def publish(workspace, name, description, pipeline, _workflow_provider=None, _service_endpoint=None, **kwargs):
        """A new endpoint whose version "0" (the default) is ``pipeline`` (a PublishedPipeline); on Azure ML a batch
        endpoint whose default deployment is the published pipeline's component."""
        if in_cloud(workspace):
            record = _cloud().publish(workspace, name, description, _published_record(workspace, pipeline))
            return PipelineEndpoint._from_record(record, workspace)
        if store.get_endpoint(name) is not None:
            raise ValueError(f"Pipeline endpoint {name!r} already exists; add versions with "
                             "PipelineEndpoint.get(ws, name=...).add_default(published_pipeline).")
        record = {"name": name, "description": description, "status": "Active", "defaultVersion": "0",
                  "versions": {"0": _pipeline_id(pipeline)}, "createdTime": time.time()}
        store.save_endpoint(record)
        return PipelineEndpoint._from_record(record, workspace)

    @staticmethod
    def get(workspace, id=None, name=None, _workflow_provider=None, _service_endpoint=None):
        if not (name or id):
            raise ValueError("PipelineEndpoint.get(ws, id=None, name=None): name the endpoint (name=...) or give "
                             "its id (PipelineEndpoint.list(ws) shows both).")
        if in_cloud(workspace):
            return PipelineEndpoint._from_record(_cloud().get(workspace, name or id), workspace)
        record = store.get_endpoint(name or id)
        if record is None:
            raise ValueError(f"No pipeline endpoint {name or id!r} in the local store.")
        return PipelineEndpoint._from_record(record, workspace)

    @staticmethod
    def list(workspace, active_only=True, max_results=100, _workflow_provider=None, _service_endpoint=None):
        records = _cloud().all_endpoints(workspace) if in_cloud(workspace) else store.all_endpoints()
        return [PipelineEndpoint._from_record(r, workspace) for r in records
                if not active_only or r["status"] == "Active"][:max_results]

    @staticmethod
    def get_all(workspace, active_only=True, _workflow_provider=None, _service_endpoint=None):
        return PipelineEndpoint.list(workspace, active_only)

    def add(self, pipeline):
        if in_cloud(self._workspace):  # a new deployment of the published pipeline's component
            return self._save(_cloud().add(self._workspace, self._name, _published_record(self._workspace, pipeline),
                                           False))
        record = self._record()
        version = str(max(int(v) for v in record["versions"]) + 1)
        record["versions"][version] = _pipeline_id(pipeline)
        self._save(record)

    def add_default(self, pipeline):
        if in_cloud(self._workspace):  # a new deployment, made the endpoint's default deployment
            return self._save(_cloud().add(self._workspace, self._name, _published_record(self._workspace, pipeline),
                                           True))
        self.add(pipeline)
        record = self._record()
        record["defaultVersion"] = str(max(int(v) for v in record["versions"]))
        self._save(record)

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
        if in_cloud(self._workspace):  # the batch endpoint's default deployment
            return self._save(_cloud().set_default(self._workspace, self._name, version))
        record["defaultVersion"] = str(version)
        self._save(record)

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
        if in_cloud(self._workspace):
            refuse("PipelineEndpoint.set_name", f"pipeline endpoint {self._name!r} is v2 batch endpoint {self._id!r}, "
                   "and a v2 endpoint's name cannot change.", "PipelineEndpoint.publish(ws, new_name, description, "
                   "pipeline) with the same published pipelines, then delete the old endpoint with "
                   f"ml_client.batch_endpoints.begin_delete({self._id!r})")
        record = self._record()
        store.endpoint_path(name)  # the new name is checked first
        import os

        os.unlink(store.endpoint_path(self._name))
        record["name"] = name
        self._save(record)

    def submit(self, experiment_name, pipeline_parameters=None, parent_run_id=None, pipeline_version=None):
        from acpt_estimator.v1 import _params

        _params.check("PipelineEndpoint.submit", parent_run_id=parent_run_id)
        if in_cloud(self._workspace):
            return self._submit_in_cloud(experiment_name, pipeline_parameters, pipeline_version)
        return self.get_pipeline(pipeline_version).submit(self._workspace, experiment_name, pipeline_parameters)

    def _submit_in_cloud(self, experiment_name, pipeline_parameters, pipeline_version):
        """Invoke the batch endpoint's deployment of the version (the default unless named): a pipeline job."""
        from acpt_estimator.v1.core.experiment import Experiment
        from acpt_estimator.v1.pipeline.core._submit import parameter_values

        record = self._record()
        version = str(pipeline_version) if pipeline_version is not None else record["defaultVersion"]
        if version not in record["versions"]:
            raise ValueError(f"PipelineEndpoint.submit(pipeline_version={pipeline_version!r}): endpoint "
                             f"{self._name!r} has versions {sorted(record['versions'], key=int)}.")
        published = _cloud_publishing().get(self._workspace, record["versions"][version])
        if published["status"] != "Active":
            raise ValueError(f"Published pipeline {published['id']} (version {version} of endpoint {self._name!r}) "
                             "is Disabled; enable() it first.")
        experiment = Experiment(self._workspace, experiment_name)
        values = parameter_values(published["spec"], pipeline_parameters)
        handle = _cloud().submit(self._workspace, experiment, record, version, published, values)
        return PipelineRun._of_pipeline(experiment, handle)

    def _set_status(self, status):
        if in_cloud(self._workspace) and status == "Active":
            return  # a v2 batch endpoint is always active (disable() refuses there): nothing to change
        if in_cloud(self._workspace):
            what = {"Disabled": "disable", "Archived": "archive"}[status]
            refuse(f"PipelineEndpoint.{what}", f"pipeline endpoint {self._name!r} is v2 batch endpoint {self._id!r}, "
                   "and v2 batch endpoints have no disabled or archived state: anyone allowed to invoke it can.",
                   f"delete it with ml_client.batch_endpoints.begin_delete({self._id!r}) (not reversible: publish it "
                   "again to bring it back), or disable the published pipelines it deploys (PublishedPipeline."
                   "disable(): their components are archived, and submit() through this endpoint refuses)")
        record = self._record()
        record["status"] = status
        self._save(record)

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


def _cloud():
    from acpt_estimator.backends.azureml import pipeline_endpoints

    return pipeline_endpoints


def _cloud_publishing():
    from acpt_estimator.backends.azureml import publishing

    return publishing


def _published_record(workspace, pipeline):
    """The registered pipeline component behind ``pipeline`` (a PublishedPipeline of this Azure ML workspace)."""
    return _cloud_publishing().get(workspace, _pipeline_id(pipeline))


def _pipeline_id(pipeline):
    if isinstance(pipeline, PublishedPipeline):
        return pipeline.id
    raise ValueError(f"pipeline={type(pipeline).__name__}: pass a PublishedPipeline (pipeline.publish(name)).")


__all__ = ["PipelineEndpoint", "PipelineIdVersion", "PipelineRun", "PipelineVersion", "PublishedPipeline"]
