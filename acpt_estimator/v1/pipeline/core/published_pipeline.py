"""v1 ``PublishedPipeline``: a pipeline kept by id, submitted again with new parameters (the local store, or a
registered v2 pipeline component on an Azure ML workspace)."""

from __future__ import annotations

from acpt_estimator.services import services_for
from acpt_estimator.v1._refusal import refused


def _keep(workspace, spec, name, description, version, continue_on_step_failure):
    record = services_for(workspace).published_pipelines.publish(spec, name, description, version,
                                                                 continue_on_step_failure)
    return PublishedPipeline._from_record(record, workspace)


def publish(pipeline, name, description, version, continue_on_step_failure):
    """``Pipeline.publish``: keep the pipeline's spec; returns the PublishedPipeline."""
    if not name:
        raise ValueError("Pipeline.publish(name=...): a published pipeline needs a name.")
    spec = pipeline._to_spec(continue_on_step_failure=continue_on_step_failure)
    return _keep(pipeline._workspace, spec, name, description, version, spec.continue_on_step_failure)


def publish_run(pipeline_run, name, description, version, continue_on_step_failure):
    """``PipelineRun.publish_pipeline``: the spec the run was made from, as a new published pipeline."""
    handle = getattr(pipeline_run, "_pipeline_handle", None)
    spec = getattr(handle, "spec", None)
    workspace = getattr(pipeline_run.experiment, "workspace", None)
    if spec is None:
        raise ValueError(f"Pipeline run {pipeline_run.id} was reopened from the store and does not carry its "
                         "pipeline; publish the Pipeline object instead (pipeline.publish(name)).")
    cont = spec.continue_on_step_failure if continue_on_step_failure is None else continue_on_step_failure
    return _keep(workspace, spec, name, description, version, cont)


class PublishedPipeline:
    """A published pipeline: ``submit(ws, experiment_name, pipeline_parameters)``, ``disable``/``enable``."""

    def __init__(self, name, graph_id, description, version, published_pipeline_id, status, endpoint,
                 total_run_steps, workspace, continue_on_step_failure, _pipeline_provider=None, **kwargs):
        self._name, self._graph_id, self._description, self._version = name, graph_id, description, version
        self._id, self._status, self._endpoint = published_pipeline_id, status, endpoint
        self._total_run_steps, self._workspace = total_run_steps, workspace
        self._continue_on_step_failure = continue_on_step_failure
        self._step_names = list(kwargs.get("_step_names") or [])
        self._component_id = kwargs.get("_component_id")  # Azure ML: the registered pipeline component

    @classmethod
    def _from_record(cls, record, workspace):
        return cls(record["name"], record["id"], record["description"], record["version"], record["id"],
                   record["status"], None, record["totalRunSteps"], workspace, record["continueOnStepFailure"],
                   _step_names=record.get("stepNames"), _component_id=record.get("componentId"))

    name = property(lambda self: self._name)
    id = property(lambda self: self._id)
    graph_id = property(lambda self: self._graph_id)
    description = property(lambda self: self._description)
    version = property(lambda self: self._version)
    status = property(lambda self: self._status)
    @property
    def endpoint(self):
        """Local: the store file; Azure ML: the scoring URI of the batch endpoint (PipelineEndpoint) deploying it."""
        return self._endpoint or services_for(self._workspace).published_pipelines.endpoint(self._id,
                                                                                             self._component_id)

    total_run_steps = property(lambda self: self._total_run_steps)
    continue_on_step_failure = property(lambda self: self._continue_on_step_failure)

    @staticmethod
    def get(workspace, id, _workflow_provider=None, _service_endpoint=None):
        return PublishedPipeline._from_record(services_for(workspace).published_pipelines.get(id), workspace)

    @staticmethod
    def list(workspace, active_only=True, _service_endpoint=None):
        records = services_for(workspace).published_pipelines.list(active_only)
        return [PublishedPipeline._from_record(r, workspace) for r in records
                if not active_only or r["status"] == "Active"]

    @staticmethod
    def get_all(workspace, active_only=True, _service_endpoint=None):
        return PublishedPipeline.list(workspace, active_only)

    def submit(self, workspace, experiment_name, pipeline_parameters=None, _workflow_provider=None,
               _service_endpoint=None, parent_run_id=None, continue_on_step_failure=None):
        """Run the published pipeline again (its steps' snapshots are taken now, from their folders)."""
        from acpt_estimator.v1 import _params
        from acpt_estimator.v1.core.experiment import Experiment
        from acpt_estimator.v1.pipeline.core._submit import parameter_values
        from acpt_estimator.v1.pipeline.core.run import PipelineRun

        _params.check("PublishedPipeline.submit", parent_run_id=parent_run_id)
        published = services_for(workspace).published_pipelines
        record = published.get(self._id)
        if record["status"] != "Active":
            raise ValueError(f"Published pipeline {self._name!r} ({self._id}) is {record['status']}; enable() it "
                             "first.")
        experiment = Experiment(workspace, experiment_name)
        cont = record["continueOnStepFailure"] if continue_on_step_failure is None else continue_on_step_failure
        values = parameter_values(published.spec(record), pipeline_parameters)
        return PipelineRun._of_pipeline(experiment, published.submit(record, experiment, values, bool(cont)))

    def _set_status(self, status):
        return services_for(self._workspace).published_pipelines.set_status(self._id, status)["status"]

    def disable(self):
        """Local: marked Disabled; Azure ML: the component version is archived (restored by ``enable``)."""
        self._status = self._set_status("Disabled")

    def enable(self):
        self._status = self._set_status("Active")

    def get_step_names(self):
        return list(self._step_names)

    get_graph = refused("PublishedPipeline.get_graph", "v1's graph lived on v1's pipeline service.",
                        "the Pipeline object's .graph")
    save = refused("PublishedPipeline.save", "v1 saved the published graph as YAML.",
                   "acpt-estimator convert (writes the v2 pipeline job YAML)")

    def __repr__(self):
        return f"PublishedPipeline(name={self._name!r}, id={self._id!r}, status={self._status!r})"
