"""The local DAG runner: a PipelineSpec's steps as local jobs, in dependency order, side by side up to the cores."""

from __future__ import annotations

import logging
import os
import threading
import time

import attrs

from ..exceptions import V1NotSupportedException
from ..names import new_run_id
from ..spec import DataInput, InputRef, Literal
from . import dag, reuse
from .spec import ParamRef

logger = logging.getLogger(__name__)
TERMINAL = ("Completed", "Failed", "Canceled")
POLL_SECONDS = 0.05


def resolve_job(step, values: dict, inputs_from: dict):
    """The step's JobSpec with parameter values in its arguments and linked inputs pointing at the producers'
    folders (``inputs_from``: input name -> folder)."""
    job = step.job
    tokens = []
    for token in job.arguments:
        if isinstance(token, ParamRef):
            value = values[token.name]
            tokens.append(InputRef(value.name) if isinstance(value, DataInput) else Literal(str(value), expand=False))
        else:
            tokens.append(token)
    inputs = []
    for item in job.inputs:
        if item.kind == "step_output":
            item = DataInput(name=item.name, reference_name=item.reference_name, kind="local", mode=item.mode,
                             uri_type=item.uri_type, uri=inputs_from[item.name])
        inputs.append(item)
    for param in step.parameters:  # a DataPath parameter's value replaces the input it stands for
        value = values.get(param.name)
        if param.kind == "datapath" and isinstance(value, DataInput):
            inputs = [attrs.evolve(value, name=i.name, reference_name=i.reference_name)
                      if i.name == param.default.name else i for i in inputs]
    variables = dict(job.environment_variables)
    variables.update({var: str(values[name]) for var, name in step.variable_parameters.items()})
    counts = {field: process_count(step, field, name, values[name])
              for field, name in step.distribution_parameters.items()}
    return attrs.evolve(job, arguments=tuple(tokens), inputs=tuple(inputs), environment_variables=variables,
                        distribution=attrs.evolve(job.distribution, **counts))


def process_count(step, field: str, name: str, value) -> int:
    """A process count taken from pipeline parameter ``name``: a positive whole number."""
    if isinstance(value, bool) or not isinstance(value, (int, str)) or not str(value).strip().isdigit() \
            or int(value) < 1:
        from ..exceptions import UserErrorException

        raise UserErrorException(f"Step {step.display_name!r}: {field} comes from pipeline parameter {name!r}, whose "
                                 f"value {value!r} is not a positive whole number; pass e.g. "
                                 f"pipeline_parameters={{{name!r}: 2}}.")
    return int(value)


class LocalPipelineRun:
    """A pipeline run on this machine: its record in the store, a scheduler thread, and the step runs it started."""

    def __init__(self, spec, experiment, values: dict, regenerate_outputs: bool = False):
        from ..backends.local import procs
        from ..backends.local.store import RunPaths, home, user, write_json

        self.spec, self.experiment, self.values = spec, experiment, values
        self.regenerate_outputs = regenerate_outputs
        self.order = dag.topological_order(spec)
        self.store_home = home()
        self.paths = RunPaths(self.store_home, new_run_id(spec.experiment_name or experiment.name))
        self._write = write_json
        self._lock = threading.Condition()
        self._cancel = threading.Event()
        self.step_runs_by_node: dict = {}  # node -> LocalRun (started here or reused)
        self.jobs: dict = {}  # node -> the JobSpec it ran
        self.paths.create()
        self.record = {
            "runId": self.paths.run_id, "experimentName": spec.experiment_name or experiment.name,
            "runType": "azureml.PipelineRun", "status": "Running", "createdTime": time.time(),
            "startTime": time.time(), "endTime": None, "target": "local", "submittedBy": user(),
            "supervisor": {"pid": os.getpid(), "startTicks": procs.own_start_time()},
            "description": spec.description, "tags": dict(spec.tags),
            "properties": {"azureml.runsource": "azureml.PipelineRun", "acpt.continueOnStepFailure":
                           str(spec.continue_on_step_failure)},
            "parameters": {k: (v.uri if isinstance(v, DataInput) else v) for k, v in values.items()},
            "pipelineOutputs": dict(spec.pipeline_outputs),
            "steps": {s.name: {"displayName": s.display_name, "status": "NotStarted", "runId": None, "reused": False,
                               "outputs": {}} for s in spec.steps},
        }
        self._save()
        # Not a daemon: a driver that submits a pipeline and returns still sees it to the end (like sweeps); the
        # "pipeline-" name tells the local backend's signal handling that a scheduler still runs.
        self.thread = threading.Thread(target=self._schedule, name=f"pipeline-{self.paths.run_id}", daemon=False)
        self.thread.start()

    @property
    def id(self) -> str:
        return self.paths.run_id

    def _save(self) -> None:
        self._write(self.paths.run_json, self.record)

    # ---- the scheduler --------------------------------------------------------------------------------
    def _schedule(self) -> None:
        try:
            self._loop()
        except BaseException as err:  # noqa: BLE001 - the run must end with a status either way
            logger.exception("Pipeline %s stopped: %s", self.id, err)
            self._cancel_running("the pipeline scheduler stopped")
            self._finish("Failed", {"message": f"{type(err).__name__}: {err}"})

    def _loop(self) -> None:
        from ..backends.local.supervisor import interrupted

        cores = max(1, len(os.sched_getaffinity(0)))
        steps = {s.name: s for s in self.spec.steps}
        state = self.record["steps"]
        pending, running, stop = list(self.order), {}, False
        while pending or running:
            for node, run in list(running.items()):
                status = run.get_status()
                if status in TERMINAL:
                    del running[node]
                    self._step_ended(node, run, status)
                    if status != "Completed" and not self.spec.continue_on_step_failure:
                        stop = True
            if interrupted.is_set():  # Ctrl-C/SIGTERM on the driver: the jobs are ending; nothing new starts
                self._cancel.set()
            if self._cancel.is_set() or stop:
                self._cancel_running("a step failed" if stop else "canceled")
                for node, run in running.items():
                    run.wait_for_completion(raise_on_error=False)
                    self._step_ended(node, run, run.get_status())
                break
            used = sum(_ranks(steps[n]) for n in running)
            for node in list(pending):
                upstream = [state[u]["status"] for u in steps[node].upstream]
                if any(s in ("Failed", "Canceled", "Skipped") for s in upstream):
                    pending.remove(node)
                    state[node]["status"] = "Skipped"  # v1 left them NotStarted; said once here
                    continue
                if not all(s == "Completed" for s in upstream):
                    continue
                world = _ranks(steps[node])
                if running and used + world > cores:
                    continue
                pending.remove(node)
                run = self._start(steps[node])
                if run is not None:
                    running[node] = run
                    used += world
            self._save()
            if pending or running:
                with self._lock:
                    self._lock.wait(POLL_SECONDS)
        failed = [n for n in self.order if state[n]["status"] in ("Failed", "Canceled")]
        if self._cancel.is_set():
            self._finish("Canceled", None)
        elif failed:
            names = ", ".join(state[n]["displayName"] for n in failed)
            self._finish("Failed", {"message": f"Step(s) failed: {names}. See each step's logs "
                                               "(pipeline_run.find_step_run(name)[0].get_details_with_logs())."})
        else:
            self._finish("Completed", None)

    def _start(self, step):
        """Start (or reuse) one step; returns its LocalRun while it runs, None when it ended at once."""
        from ..backends.local import find_run
        from ..backends.local.run import submit as start

        state = self.record["steps"][step.name]
        inputs_from = {link.input_name: self.record["steps"][link.step]["outputs"][link.output]
                       for link in step.links}
        from importlib import import_module

        from .spec import STEP_KINDS

        # a kind's to_local_job gets this run: .values (parameters) and .record (producers' output folders); a
        # kind that runs its job itself (a sweep's trials) has start_local(step, job, pipeline_run) too
        kind = import_module(STEP_KINDS[step.kind])
        job = kind.to_local_job(step, self)
        job = attrs.evolve(job, experiment_name=self.record["experimentName"], display_name=step.display_name)
        key = None
        if step.allow_reuse and not self.regenerate_outputs:
            key = reuse.reuse_key(job, {k: v for k, v in sorted(inputs_from.items())}, settings=step.sweep)
            found = reuse.lookup(self.store_home, key)
            if found is not None:
                earlier = find_run(found["runId"], self.experiment, self.store_home)
                if earlier is not None and earlier.get_status() == "Completed":
                    state.update(status="Completed", runId=found["runId"], reused=True, outputs=found["outputs"])
                    self.step_runs_by_node[step.name] = earlier
                    return None
        state["reuseKey"] = key
        self.jobs[step.name] = job
        try:
            starter = getattr(kind, "start_local", None)
            run = starter(step, job, self) if starter else start(job, self.experiment, parent_run_id=self.id)
        except Exception as err:  # noqa: BLE001 - a step that cannot start fails like one that crashed
            state.update(status="Failed", error=f"{type(err).__name__}: {err}")
            logger.error("Pipeline %s: step %s could not start: %s", self.id, step.display_name, err)
            return _Ended()
        state.update(status="Running", runId=run.id)
        self.step_runs_by_node[step.name] = run
        threading.Thread(target=self._wake_when_done, args=(run,), daemon=True).start()
        return run

    def _wake_when_done(self, run) -> None:
        """Wake the scheduler as soon as the step ends (its dependents start without waiting for the next poll)."""
        job = getattr(run, "_job", None)
        if job is not None:
            job.done.wait()
        with self._lock:
            self._lock.notify_all()

    def _step_ended(self, node: str, run, status: str) -> None:
        state = self.record["steps"][node]
        if isinstance(run, _Ended):
            return
        state["status"] = status
        if status == "Completed":
            own = getattr(run, "output_folders", None)  # a step run that knows its outputs (a sweep's)
            state["outputs"] = own(self.store_home) if own else _output_folders(self.jobs[node], run, self.store_home)
            if state.get("reuseKey"):
                reuse.remember(self.store_home, state["reuseKey"], run.id, state["outputs"])

    def _cancel_running(self, reason: str) -> None:
        for node, run in list(self.step_runs_by_node.items()):
            if not isinstance(run, _Ended) and run.get_status() not in TERMINAL:
                run.cancel()

    def _finish(self, status: str, error) -> None:
        # The final record is written first, outside the lock: a driver ending on Ctrl-C must not lose it.
        self.record.update(status=status, endTime=time.time(), error=error)
        self._save()
        with self._lock:
            self._lock.notify_all()

    # ---- what PipelineRun asks -------------------------------------------------------------------------
    def get_status(self) -> str:
        return self.record["status"]

    def cancel(self) -> None:
        self._cancel.set()
        with self._lock:
            self._lock.notify_all()

    def wait(self, timeout: float | None = None) -> bool:
        self.thread.join(timeout)
        return not self.thread.is_alive()

    def inputs_for(self, step) -> dict:
        """Input name -> the folder its producer wrote, for each linked input of ``step``."""
        return {link.input_name: self.record["steps"][link.step]["outputs"][link.output] for link in step.links}

    def steps(self) -> dict:
        """node -> {displayName, status, runId, reused, outputs}, in the pipeline's order."""
        return {node: dict(self.record["steps"][node]) for node in self.order}

    def step_runs(self) -> dict:
        """node -> the step's LocalRun, in the order steps started (reused ones included)."""
        return {node: run for node, run in list(self.step_runs_by_node.items()) if not isinstance(run, _Ended)}

    def outputs(self, node: str) -> dict:
        return dict(self.record["steps"][node]["outputs"])

    def all_outputs(self) -> dict:
        return {node: self.outputs(node) for node in self.order}

    def pipeline_outputs(self) -> dict:
        """v1 pipeline output name (PipelineData's pipeline_output_name) -> the step output's name."""
        return dict(self.record.get("pipelineOutputs") or {})

    def error(self):
        return self.record.get("error")

    def run(self, experiment):
        """The LocalRun over the pipeline's own record (tags, details, portal link, children)."""
        from ..backends.local.run import LocalRun

        return LocalRun(self.paths, experiment=experiment)


def _ranks(step) -> int:
    """The cores a running step takes: its ranks (a sweep: those of each trial it runs at once)."""
    ranks = step.job.distribution.world_size
    return ranks * step.sweep.max_concurrent_runs if step.sweep is not None else ranks


class _Ended:
    """A step that failed before it started (its error is in the pipeline record)."""

    id = None

    def get_status(self):
        return "Failed"


def _output_folders(job, run, store_home: str) -> dict:
    """Output name -> the folder a consumer reads: the datastore folder (after upload), else where it was written."""
    from ..backends.local.store import datastore_folder

    folders = {}
    for item, output in zip(job.outputs, run._record().get("outputDatasets") or []):
        folders[item.name] = (datastore_folder(store_home, output["datastore"], output["pathOnDatastore"])
                              if output.get("datastore") else output["localPath"])
    return folders


def submit(spec, experiment, values: dict, regenerate_outputs: bool = False) -> LocalPipelineRun:
    """Start ``spec`` on this machine; returns at once (the steps run in a scheduler thread)."""
    for step in spec.steps:
        if step.kind == "refused":
            raise V1NotSupportedException(step.refusal)
        for field, name in step.distribution_parameters.items():  # a bad count refuses before anything runs
            process_count(step, field, name, values[name])
    return LocalPipelineRun(spec, experiment, values, regenerate_outputs)


class SavedPipelineRun(LocalPipelineRun):
    """A pipeline run reopened from its record (another process ran it): read-only, except cancel."""

    def __init__(self, paths, record: dict):  # noqa: super().__init__ would start a new run
        self.paths, self.record, self.store_home = paths, record, paths.home
        self.order = list(record["steps"])
        self.step_runs_by_node = {}
        from ..backends.local import find_run

        self._settle()
        for node, state in record["steps"].items():
            if state.get("runId"):
                run = find_run(state["runId"], store_home=paths.home)
                if run is not None:
                    self.step_runs_by_node[node] = run

    def wait(self, timeout: float | None = None) -> bool:
        return self.record["status"] in TERMINAL

    def _settle(self) -> None:
        """A pipeline whose driver died (Ctrl-C, a crash) before writing its end: final from its steps' records."""
        from ..backends.local import find_run, procs
        from ..backends.local.store import write_json

        owner = self.record.get("supervisor") or {}
        if self.record["status"] in TERMINAL or procs.process_alive(owner.get("pid"), owner.get("startTicks")):
            return
        for state in self.record["steps"].values():
            run = find_run(state["runId"], store_home=self.paths.home) if state.get("runId") else None
            if run is not None:
                state["status"] = run.get_status()  # settled by the local backend the same way
        statuses = {state["status"] for state in self.record["steps"].values()}
        status = "Failed" if "Failed" in statuses else "Completed" if statuses == {"Completed"} else "Canceled"
        self.record.update(status=status, endTime=time.time(), endReason="driver ended")
        write_json(self.paths.run_json, self.record)

    def cancel(self) -> None:
        for run in self.step_runs_by_node.values():
            if run.get_status() not in TERMINAL:
                run.cancel()


def reopen(run_id: str, store_home: str | None = None):
    """The pipeline run ``run_id`` of the local store, or None."""
    from ..backends.local.store import read_json, run_paths

    paths = run_paths(run_id, store_home)
    try:
        record = read_json(paths.run_json)
    except (OSError, ValueError):
        return None
    return SavedPipelineRun(paths, record) if record.get("runType") == "azureml.PipelineRun" else None
