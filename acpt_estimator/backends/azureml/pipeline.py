"""Submit a PipelineSpec as one v2 pipeline job and follow it: status, child jobs per step, outputs, cancel."""

from __future__ import annotations

import time

from ...names import new_run_id
from ...snapshot_guard import check_snapshot
from .client import azure_errors, ml_client
from . import stream


def submit_pipeline(spec, experiment, values: dict, regenerate_outputs: bool = False) -> "CloudPipelineRun":
    """Create the pipeline job (its anonymous components, code and environments first, as the SDK does)."""
    from .pipeline_translate import to_pipeline_job

    workspace = experiment.workspace
    client = ml_client(workspace)
    for folder in dict.fromkeys(s.job.source_directory for s in spec.steps if s.job is not None):
        check_snapshot(folder)
    job = to_pipeline_job(spec, values, regenerate_outputs=regenerate_outputs)
    job.name = new_run_id(experiment.name)
    job.experiment_name = experiment.name
    with azure_errors(workspace, f"submit a pipeline to experiment {experiment.name!r}"):
        created = client.jobs.create_or_update(job, skip_validation=True)
    return CloudPipelineRun(experiment, created.name, spec, created)


class CloudPipelineRun:
    """The pipeline handle of a v2 pipeline job; each step is the child job whose node id is the step's node."""

    def __init__(self, experiment, name: str, spec=None, job=None):
        self.experiment, self.name, self.spec, self._job = experiment, name, spec, job
        self._children: dict = {}
        self._best: dict = {}  # sweep node's job name -> its best trial's name

    @property
    def id(self) -> str:
        return self.name

    def _client(self):
        return ml_client(self.experiment.workspace)

    def _refresh(self):
        with azure_errors(self.experiment.workspace, f"read pipeline run {self.name!r}"):
            self._job = self._client().jobs.get(self.name)
        return self._job

    def get_status(self) -> str:
        return stream.v1_status(self._refresh().status)

    def wait(self, timeout: float | None = None) -> bool:
        deadline = None if timeout is None else time.monotonic() + timeout
        intervals = stream.poll_intervals()  # v1's polling: 2 s first, backing off to a minute
        while self.get_status() not in stream.STOP_WAITING:
            if deadline is not None and time.monotonic() >= deadline:
                return False
            delay = next(intervals)
            time.sleep(delay if deadline is None else max(0.0, min(delay, deadline - time.monotonic())))
        return True

    def cancel(self) -> None:
        with azure_errors(self.experiment.workspace, f"cancel pipeline run {self.name!r}"):
            self._client().jobs.begin_cancel(self.name)

    def _child_jobs(self) -> dict:
        """node name -> the child job the service started for it (nodes not started yet are absent)."""
        with azure_errors(self.experiment.workspace, f"list the steps of pipeline run {self.name!r}"):
            children = list(self._client().jobs.list(parent_job_name=self.name))
        found = {}
        for child in children:
            node = (getattr(child, "properties", None) or {}).get("azureml.nodeid") or child.display_name
            found[node] = child
        return found

    def steps(self) -> dict:
        children = self._child_jobs()
        nodes = [s.name for s in self.spec.steps] if self.spec is not None else list(children)
        display = {s.name: s.display_name for s in self.spec.steps} if self.spec is not None else {}
        result = {}
        for node in nodes:
            child = children.get(node)
            result[node] = {"displayName": display.get(node, node), "runId": getattr(child, "name", None),
                            "status": stream.v1_status(child.status) if child is not None else "NotStarted",
                            "reused": False, "outputs": self._outputs_of(node, child, children)}
        return result

    def step_runs(self) -> dict:
        from .run import CloudHyperDriveRun, CloudRun

        runs = {}
        for node, child in self._child_jobs().items():
            step = self._step(node)
            if step is None and self.spec is not None:  # a node no v1 step is (a sweep's TrainingOutputs writer)
                continue
            if step is not None and step.kind == "sweep":  # a HyperDriveStep: the sweep run (v1 HyperDriveStepRun)
                from ...pipelines.kinds.sweep_config import StepSweepConfig

                runs[node] = CloudHyperDriveRun(self.experiment, child.name, job=child,
                                                config=StepSweepConfig(step.sweep, step.job))
            else:
                runs[node] = CloudRun(self.experiment, child.name, job=child)
        return runs

    def _step(self, node: str):
        if self.spec is None:
            return None
        try:
            return self.spec.step(node)
        except KeyError:
            return None

    def _outputs_of(self, node, child, children=None) -> dict:
        """Output name -> datastore URI where the step wrote it (the service fills ${{name}} with the name of the job
        that wrote it: the child's, or for a sweep node its best trial's, whose outputs v2 passes on; a sweep's
        TrainingOutputs, the node's after it)."""
        if child is None or self.spec is None:
            return {}
        step = self.spec.step(node)
        uris = {}
        if step.kind == "sweep" and step.sweep.training_outputs:
            from ...pipelines.kinds.sweep_v2_outputs import follower_name

            follower = (self._child_jobs() if children is None else children).get(follower_name(step))
            for item in (t.output for t in step.sweep.training_outputs):
                if follower is not None:
                    uris[item.name] = item.uri.replace("{run-id}", follower.name).replace("{output-name}", item.name)
        writer = self._best_trial(step, child) if step.kind == "sweep" else child.name
        if writer is None:
            return uris
        for item in step.job.outputs:
            uri = item.uri.replace("{run-id}", writer).replace("{output-name}", item.name)
            uris[item.name] = uri
        return uris

    def _best_trial(self, step, child):
        """The best completed trial's name once the sweep node has completed (asked once), else None."""
        if child.name not in self._best:
            if stream.v1_status(child.status) != "Completed":
                return None
            from ...hyperdrive.results import best_completed_trial
            from ...pipelines.kinds.sweep_config import StepSweepConfig
            from .run import CloudHyperDriveRun

            best = best_completed_trial(CloudHyperDriveRun(self.experiment, child.name, job=child,
                                                           config=StepSweepConfig(step.sweep, step.job)))
            self._best[child.name] = getattr(best, "id", None)
        return self._best[child.name]

    def outputs(self, node: str) -> dict:
        return self._outputs_of(node, self._child_jobs().get(node))

    def all_outputs(self) -> dict:
        children = self._child_jobs()
        return {node: self._outputs_of(node, children.get(node), children) for node in children
                if self._step(node) is not None}

    def pipeline_outputs(self) -> dict:
        """v1 pipeline output name (PipelineData's pipeline_output_name) -> the step output's name."""
        return dict(self.spec.pipeline_outputs) if self.spec is not None else {}

    def error(self):
        error = getattr(self._job, "error", None) if self._job is not None else None
        return {"message": str(error)} if error else None

    def run(self, experiment):
        from .run import CloudRun

        return CloudRun(experiment, self.name, job=self._job)
