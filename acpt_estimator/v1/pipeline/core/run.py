"""v1 ``azureml.pipeline.core.run``: PipelineRun and StepRun, v1 run classes over a backend's pipeline handle."""

from __future__ import annotations

import time

from acpt_estimator.exceptions import ActivityFailedException, ExperimentExecutionException, UserErrorException
from acpt_estimator.v1._refusal import refused
from acpt_estimator.v1.core.experiment import Experiment
from acpt_estimator.v1.core._run_handle import OverHandle
from acpt_estimator.v1.core.run import Run
from acpt_estimator.v1.core.script_run import ScriptRun

RUNNING_STATES = ["NotStarted", "Running", "Queued", "Unknown"]  # v1's list (a pipeline run's own)
_GRAPH = ("v1's run graph lived on the v1 pipeline service.", "pipeline_run.get_steps() and each step's "
          "get_details()")


class _OverRun(Run):
    """A v1 run class over a backend's run handle (``acpt_estimator.run_handle``); ``_inner`` is that handle."""

    _reopens_by_id = False

    def __init__(self, inner, experiment=None):
        self._handle = inner._handle if isinstance(inner, OverHandle) else inner  # a v1 run: the handle under it
        self._experiment = experiment

    @property
    def _inner(self):
        return self._handle


class StepRun(_OverRun):
    """One step's run inside a pipeline run: a v1 run (metrics, logs, files) plus the step's outputs."""

    def __init__(self, experiment, step_run_id=None, pipeline_run_id=None, node_id=None, _inner=None,
                 _pipeline=None, **kwargs):
        if _inner is None:
            from acpt_estimator.v1.core.run import find_run

            _inner = find_run(experiment.workspace, step_run_id, experiment)
        super().__init__(_inner, experiment)
        self._pipeline, self._node_id = _pipeline, node_id
        self._pipeline_run_id = pipeline_run_id or getattr(_pipeline, "id", None)

    @property
    def pipeline_run_id(self):
        return self._pipeline_run_id

    def wait_for_completion(self, show_output=True, timeout_seconds=9223372036854775807, raise_on_error=True):
        """v1: wait for the step, at most ``timeout_seconds``; returns its status."""
        if timeout_seconds >= 10 ** 9:  # no limit: wait (and stream its log) as a single run does
            Run.wait_for_completion(self, show_output=show_output, raise_on_error=raise_on_error)
            return self.get_status()
        deadline = time.monotonic() + timeout_seconds
        while self.get_status() not in ("Completed", "Failed", "Canceled") and time.monotonic() < deadline:
            time.sleep(min(0.5, max(0.0, deadline - time.monotonic())))
        status = self.get_status()
        if raise_on_error and status == "Failed":
            raise ActivityFailedException(f"Step run {self.id} ({self.name}) failed; see get_details_with_logs().")
        return status

    @property
    def name(self):
        return self._inner.display_name

    def get_output(self, name):
        return self.get_output_data(name)

    def get_outputs(self):
        """{output name: StepRunOutput} of the step."""
        return {name: StepRunOutput(None, self._pipeline_run_id, self, name, path)
                for name, path in self._output_folders().items()}

    def get_output_data(self, name):
        """The step output ``name`` as a PortDataReference (``.download(path)``, ``.path_on_datastore``)."""
        folders = self._output_folders()
        if name not in folders:
            raise ExperimentExecutionException(f"Step {self.name!r} has no output {name!r}; its outputs are "
                                               f"{sorted(folders)}.")
        from .port_data_reference import PortDataReference

        return PortDataReference._at(self, name, folders[name])

    def _output_folders(self) -> dict:
        if self._pipeline is not None:
            return self._pipeline._handle_outputs(self._node_id)
        return {}

    def get_job_log(self):
        return self._log_text(("azureml-logs/", "user_logs/std_log"))

    def get_stdout_log(self):
        return self._log_text(("user_logs/std_log", "azureml-logs/70_driver_log"))

    def get_stderr_log(self):
        return self._log_text(("user_logs/std_log",))

    def _log_text(self, prefixes) -> str:
        logs = self.get_details_with_logs().get("logFiles") or {}
        return "".join(text for name, text in sorted(logs.items()) if name.startswith(prefixes))

    child_run = refused("StepRun.child_run", "a step's run is made by the pipeline.", "Run.get_context().child_run() "
                        "inside the step's script")

    def complete(self, _set_status=True):
        return self._status_is_the_backends("complete")

    def fail(self, error_details=None, error_code=None, _set_status=True):
        return self._status_is_the_backends("fail")


class StepRunOutput:
    """One output of a step run."""

    def __init__(self, context, pipeline_run_id, step_run, name, step_output):
        del context  # v1's service context: the step run reads its own outputs here
        self._pipeline_run_id, self._step_run, self._name, self._path = pipeline_run_id, step_run, name, step_output

    def get_port_data_reference(self):
        return self._step_run.get_output_data(self._name)


class PipelineRun(_OverRun):
    """A submitted pipeline: its status, its steps' runs and their outputs."""

    def __init__(self, experiment, run_id=None, _service_endpoint=None, **kwargs):
        from acpt_estimator.pipelines.local import reopen

        handle = reopen(run_id) if run_id is not None else None
        if handle is None:
            raise UserErrorException(f"PipelineRun(experiment, run_id={run_id!r}): no such pipeline run in the local "
                                     "store; cloud pipeline runs are reopened with Run.get(ws, run_id).")
        self._init(experiment, handle)

    @classmethod
    def _of_pipeline(cls, experiment, handle):
        run = cls.__new__(cls)
        run._init(experiment, handle)
        return run

    def _init(self, experiment, handle):
        super().__init__(handle.run(experiment), experiment)
        self._pipeline_handle = handle

    @property
    def type(self):
        return "azureml.PipelineRun"

    def get_status(self):
        return self._pipeline_handle.get_status()

    def wait_for_completion(self, show_output=True, timeout_seconds=9223372036854775807, raise_on_error=True):
        """Wait for every step; with ``show_output`` print each step's status as it changes and its log tail."""
        deadline = time.monotonic() + min(timeout_seconds, 10 ** 9)
        shown: dict = {}
        if show_output:
            print(f"PipelineRunId: {self.id}\nLink to Azure Machine Learning Portal: {self.get_portal_url()}",
                  flush=True)
        try:
            while not self._pipeline_handle.wait(0.2):
                if show_output:
                    self._show(shown)
                if time.monotonic() > deadline:
                    return self.get_status()
        except KeyboardInterrupt:
            self.cancel()
            self._pipeline_handle.wait(60)
            raise
        if show_output:
            self._show(shown)
            print(f"\nPipelineRun Execution Summary\n==============================\nPipelineRun Status: "
                  f"{self.get_status()}\n", flush=True)
        status = self.get_status()
        if raise_on_error and status != "Completed" and not getattr(self._pipeline_handle, "captured", False):
            error = self._pipeline_handle.error() or {}
            raise ActivityFailedException(f"Pipeline run {self.id} ended {status}: {error.get('message', '')}")
        return status

    def _show(self, shown: dict) -> None:
        for node, state in self._pipeline_handle.steps().items():
            key = (state["status"], state.get("runId"))
            if shown.get(node) != key:
                shown[node] = key
                reused = " (reused)" if state.get("reused") else ""
                print(f"StepRun({state['displayName']}) Status: {state['status']}{reused}"
                      f"{'  RunId: ' + state['runId'] if state.get('runId') else ''}", flush=True)

    def cancel(self):
        self._pipeline_handle.cancel()

    def get_steps(self):
        """The step runs, most recently started first (v1's order)."""
        runs = [StepRun(self._experiment, _inner=inner, _pipeline=self, node_id=node)
                for node, inner in self._pipeline_handle.step_runs().items()]
        return iter(reversed(runs))

    def find_step_run(self, name):
        """The step runs whose step name is ``name`` (a list; v1 names need not be unique)."""
        return [s for s in self.get_steps() if s.name == name]

    def get_children(self, recursive=False, tags=None, properties=None, type=None, status=None,
                     _rehydrate_runs=True):
        return self.get_steps()

    def _handle_outputs(self, node):
        return self._pipeline_handle.outputs(node)

    def get_pipeline_output(self, pipeline_output_name):
        """The output a step wrote for ``PipelineData(..., pipeline_output_name=...)`` (or named so itself)."""
        promoted = getattr(self._pipeline_handle, "pipeline_outputs", dict)()
        name = promoted.get(pipeline_output_name, pipeline_output_name)
        for node, outputs in self._pipeline_handle.all_outputs().items():
            if name in outputs:
                from .port_data_reference import PortDataReference

                return PortDataReference._at(None, name, outputs[name])
        raise ExperimentExecutionException(f"Pipeline run {self.id} has no output named {pipeline_output_name!r}.")

    def get_tags(self):
        return self._inner.get_tags()

    def publish_pipeline(self, name, description, version, continue_on_step_failure=None):
        """Publish the pipeline this run was made from (see Pipeline.publish)."""
        from .published_pipeline import publish_run

        return publish_run(self, name, description, version, continue_on_step_failure)

    @staticmethod
    def get(workspace, run_id, _service_endpoint=None):
        return PipelineRun(Experiment(workspace, "pipelines"), run_id)

    get_pipeline_runs = refused("PipelineRun.get_pipeline_runs", "v1 indexed runs by published pipeline id on its "
                                "service.", "Experiment(ws, name).get_runs() filtered by the tag it was submitted with")
    get_graph = refused("PipelineRun.get_graph", *_GRAPH)
    save = refused("PipelineRun.save", "v1 saved the run's graph as YAML.", "acpt-estimator convert (writes the v2 "
                   "pipeline job YAML)")
    child_run = refused("PipelineRun.child_run", "a pipeline run's children are its steps.", "the step's own "
                        "Run.get_context().child_run()")

    def complete(self, _set_status=True):
        return self._status_is_the_backends("complete")

    def fail(self, error_details=None, error_code=None, _set_status=True):
        return self._status_is_the_backends("fail")


__all__ = ["ActivityFailedException", "Experiment", "ExperimentExecutionException", "PipelineRun", "RUNNING_STATES",
           "Run", "ScriptRun", "StepRun", "StepRunOutput"]
