"""Local HyperDrive: trials run through the local runner, ``max_concurrent_runs`` at a time, policies applied live."""

from __future__ import annotations

import datetime
import json
import os
import queue
import threading
import time
import uuid

from ..exceptions import UserErrorException
from acpt_estimator.run_handle import TERMINAL_STATUSES
from ..run_handle import RunHandle
from .early_termination import should_stop
from .results import SweepHandle
from .samplers import sampler_for

POLL_SECONDS = 0.25


def submit_sweep(config, experiment, tags=None, parent_run_id=None, display_name=None) -> "LocalHyperDriveRun":
    """The ``HyperDriveConfig._submit`` hook for the local backend; returns at once, trials run in a thread.
    ``parent_run_id``/``display_name``: a pipeline's HyperDriveStep (its pipeline run, the step's name)."""
    from ..backends.local.supervisor import install_interrupt_handlers

    install_interrupt_handlers()  # trials are submitted from the scheduler thread; signals reach only the main one
    run = LocalHyperDriveRun(config, experiment, tags)
    run._parent, run._display_name = parent_run_id, display_name
    run._save()
    run._thread.start()
    return run


def primary_series(child, name: str) -> list:
    """The trial's reports of the primary metric, in order; rank 0's when several ranks log it."""
    from ..tracking import SCALAR

    by_writer = {}
    for record in child._records():
        if record.get("k") == SCALAR and record.get("n") == name and isinstance(record.get("v"), (int, float)):
            by_writer.setdefault(record.get("w"), []).append(record["v"])
    if not by_writer:
        return []
    return by_writer.get("rank_0") or by_writer[sorted(by_writer)[0]]


class _SweepRun(SweepHandle, RunHandle):
    """What a local sweep handle (live or reopened) has in common: its files are its trials'."""

    def get_portal_url(self) -> str:
        from ..backends.local.store import home

        return "file://" + home()

    def get_file_names(self) -> list:
        return []

    def get_metrics(self, name=None) -> dict:
        """The sweep's own metrics: a local sweep logs none (its trials do; v1's HyperDriveRun.get_metrics and a
        HyperDriveStepRun's give theirs); reached through a pipeline's StepRun."""
        return {}

    def download_file(self, name, output_file_path=None, _validate_checksum=False) -> None:
        raise UserErrorException(f"A HyperDrive run has no files of its own ({name!r}); download from a trial, "
                                 "e.g. hd_run.get_best_run_by_primary_metric().download_file(...).")

    def download_files(self, prefix=None, output_directory=None, output_paths=None, batch_size=100,
                       append_prefix=True, timeout_seconds=None) -> None:
        self.download_file(prefix or "")

    def upload_file(self, name, path_or_stream, datastore_name=None):
        raise UserErrorException(f"A local HyperDrive run keeps no files of its own ({name!r}); upload to a trial, "
                                 "e.g. hd_run.get_best_run_by_primary_metric().upload_file(name, path).")

    def upload_folder(self, name, path, datastore_name=None):
        self.upload_file(name, path)

    def register_model(self, model_name, model_path=None, tags=None, properties=None, model_framework=None,
                       model_framework_version=None, description=None, datasets=None, sample_input_dataset=None,
                       sample_output_dataset=None, resource_configuration=None, **kwargs):
        raise UserErrorException("Register the model from a trial: "
                                 "hd_run.get_best_run_by_primary_metric().register_model(model_name, model_path).")


class LocalHyperDriveRun(_SweepRun):
    """The local sweep handle (v1 wraps it in a HyperDriveRun); each trial is an ordinary LocalRun handle."""

    _parent = _display_name = None  # set for a pipeline's HyperDriveStep

    def __init__(self, config, experiment, tags=None):
        self._config = config
        self._experiment = experiment
        self._tags = dict(tags or {})
        self._id = f"HD_{uuid.uuid4()}"
        self._children: list = []
        self._params: dict = {}
        self._stopped_at: dict = {}
        self._judged: dict = {}  # trial id -> reports already judged by the policy
        self._status = "Running"
        self._error = None
        self._start_time = time.time()
        self._end_time = None
        self._cancel = threading.Event()
        self._events: queue.Queue = queue.Queue()
        self._lock = threading.Lock()
        # Not a daemon: a driver that submits a sweep and returns still sees it to the end, like single runs.
        self._thread = threading.Thread(target=self._schedule, name=f"hyperdrive-{self._id}", daemon=False)

    # ---- the scheduler ------------------------------------------------------------------------------
    def _schedule(self) -> None:
        from ..backends.local.run import submit as submit_local
        from ..backends.local.supervisor import interrupted

        cfg = self._config
        name, maximize = self._primary()
        sampler = sampler_for(cfg._sampling, maximize)
        deadline = self._start_time + cfg._max_duration_minutes * 60 if cfg._max_duration_minutes else None
        running, told, exhausted = [], set(), False
        try:
            while not self._cancel.is_set() and not interrupted.is_set():
                while not exhausted and len(running) < cfg._max_concurrent_runs \
                        and len(self._children) < cfg._max_total_runs:
                    params = sampler.ask()
                    if params is None:
                        exhausted = True
                        break
                    child = submit_local(cfg.trial_spec(self._experiment.name, self._tags, values=params),
                                         self._experiment)
                    child.tag("hyperdrive_parent", self._id)
                    child.tag("hyperparameters", json.dumps(params))
                    with self._lock:
                        self._children.append(child)
                        self._params[child.id] = params
                    running.append(child)
                    self._save()
                    self._events.put(f"Started trial {child.id} with {params}")
                if not running:
                    break
                time.sleep(POLL_SECONDS)
                self._apply_policy(running, name, maximize)
                for child in [c for c in running if c.get_status() in TERMINAL_STATUSES]:
                    running.remove(child)
                    series = primary_series(child, name)
                    best = (max if maximize else min)(series) if series else None
                    if child.id not in told:
                        told.add(child.id)
                        sampler.tell(self._params[child.id], best)
                    self._events.put(f"Trial {child.id}: {child.get_status()}, best {name} = {best}")
                if deadline is not None and time.time() > deadline:
                    self._events.put(f"max_duration_minutes={cfg._max_duration_minutes} reached; ending trials")
                    self._cancel.set()
            for child in running:
                child.cancel()
            for child in running:  # the sweep ends when its trials have: v1's wait_for_completion waits for them
                child._finished(30)
            self._status = "Canceled" if self._cancel.is_set() or interrupted.is_set() else "Completed"
        except Exception as err:  # a scheduler crash must end the trials and surface, not hang the driver
            for child in running:
                child.cancel()
            self._status = "Failed"
            self._error = f"HyperDrive scheduler failed: {err}"
            self._events.put(self._error)
        finally:
            self._end_time = time.time()
            try:
                self._save()
            except OSError as err:
                self._events.put(f"Could not save the sweep run: {err}")
            self._events.put(None)

    def _apply_policy(self, running, name: str, maximize: bool) -> None:
        policy = self._config._policy
        series = {c.id: primary_series(c, name) for c in self._children}
        for child in list(running):
            others = [s for cid, s in series.items() if cid != child.id]
            report = should_stop(policy, series[child.id], others, maximize, after=self._judged.get(child.id, 0))
            self._judged[child.id] = len(series[child.id])
            if report is not None and child.get_status() not in TERMINAL_STATUSES:
                self._stopped_at[child.id] = report
                child.tag("early_termination", f"{type(policy).__name__} at report {report}")
                child.cancel()
                self._events.put(f"Trial {child.id} ended early by {type(policy).__name__} at report {report}")

    # ---- the Run protocol ---------------------------------------------------------------------------
    @property
    def id(self) -> str:
        return self._id

    def get_status(self) -> str:
        return self._status

    def _parent_id(self):
        return self._parent

    @property
    def display_name(self) -> str:
        return self._display_name or self._id

    def get_children(self, recursive=False, tags=None, properties=None, type=None, status=None,
                     _rehydrate_runs=True):
        with self._lock:
            children = list(self._children)
        return iter([c for c in children if status is None or c.get_status() == status])

    def _hyperparameters_of(self, child):
        return self._params.get(child.id)

    def _save(self) -> None:
        """The sweep's record in the local store, so ``get_run(id)`` reopens it from any process."""
        from ..backends.local import procs
        from ..backends.local.store import run_paths, write_json

        cfg = self._config
        with self._lock:
            children = [c.id for c in self._children]
            params = dict(self._params)
        paths = run_paths(self._id)
        os.makedirs(paths.root, exist_ok=True)
        write_json(paths.run_json, {
            "runId": self._id, "runType": "hyperdrive", "experimentName": self._experiment.name,
            "status": self._status, "createdTime": self._start_time, "startTime": self._start_time,
            "endTime": self._end_time, "target": "local", "tags": self._tags, "children": children,
            "parentRunId": self._parent, "displayName": self._display_name,
            "hyperparameters": params, "earlyTerminated": dict(self._stopped_at),
            "primaryMetricConfig": cfg.primary_metric_config,
            "properties": self.properties,
            "supervisor": {"pid": os.getpid(), "startTicks": procs.own_start_time()},
            "error": {"code": "SystemError", "message": self._error} if self._error else None})

    def early_terminated(self) -> dict:
        """``{trial id: report number}`` of the trials the policy ended."""
        return dict(self._stopped_at)

    def get_details(self) -> dict:
        iso = lambda t: None if t is None else datetime.datetime.fromtimestamp(t, datetime.timezone.utc).isoformat()
        cfg = self._config
        return {"runId": self._id, "target": "local", "status": self._status, "startTimeUtc": iso(self._start_time),
                "endTimeUtc": iso(self._end_time),
                "properties": {"primary_metric_config": json.dumps(cfg.primary_metric_config),
                               "generator_config": json.dumps(cfg._sampling.to_json()),
                               "policy_config": json.dumps(cfg._policy.to_json()),
                               "max_total_jobs": cfg._max_total_runs, "max_concurrent_jobs": cfg._max_concurrent_runs},
                "children": [c.id for c in self.get_children()]}

    def wait_for_completion(self, show_output=False, wait_post_processing=False, raise_on_error=True) -> dict:
        if show_output:
            print(f"RunId: {self._id}\nWeb View: {self.get_portal_url()}\n")
        while True:
            event = self._events.get()
            if event is None:
                self._events.put(None)  # later waits return at once
                break
            if show_output:
                print(event, flush=True)
        self._thread.join()
        if show_output:
            print(f"\nExecution Summary\n=================\nRunId: {self._id}\nStatus: {self._status}\n")
        if self._status == "Failed" and raise_on_error:
            from ..exceptions import ActivityFailedException

            raise ActivityFailedException(f"Activity Failed:\n{json.dumps(self.get_details(), indent=2)}")
        return self.get_details()

    def cancel(self) -> None:
        self._cancel.set()
        for child in self.get_children():
            if child.get_status() not in TERMINAL_STATUSES:
                child.cancel()

    # ---- tags and properties: this process holds them and saves them with the sweep's record -------
    def get_tags(self) -> dict:
        return dict(self._tags)

    def set_tags(self, tags) -> None:
        self._tags.update({str(k): "" if v is None else str(v) for k, v in dict(tags).items()})
        self._save()

    def remove_tags(self, tags) -> None:
        for key in [tags] if isinstance(tags, str) else list(tags):
            self._tags.pop(key, None)
        self._save()

    @property
    def properties(self) -> dict:
        return {**self.get_details()["properties"], **self._properties}

    _properties: dict = {}

    def add_properties(self, properties) -> None:
        self._properties = {**self._properties, **{str(k): str(v) for k, v in dict(properties).items()}}
        self._save()

    def get_environment(self):
        """The trials' environment (every trial runs in the same one)."""
        return self._config.trial_spec(self._experiment.name, self._tags).environment


class SavedHyperDriveRun(_SweepRun):
    """A local sweep reopened from its record (``get_run(id)``): its trials, their metrics, the best one."""

    def __init__(self, paths):
        self._paths = paths

    def _record(self) -> dict:
        from ..backends.local.store import read_json

        return read_json(self._paths.run_json)

    @property
    def id(self) -> str:
        return self._paths.run_id

    def _primary(self) -> tuple[str, bool]:
        cfg = self._record()["primaryMetricConfig"]
        return cfg["name"], cfg["goal"] == "maximize"

    def _hyperparameters_of(self, child):
        return self._record().get("hyperparameters", {}).get(child.id)

    def get_status(self) -> str:
        return self._effective()["status"]

    def _parent_id(self):
        return self._record().get("parentRunId")

    @property
    def display_name(self) -> str:
        return self._record().get("displayName") or self.id

    def _effective(self) -> dict:
        """A sweep whose driver died is not Running: its trials ended with that driver."""
        from ..backends.local import procs

        record = self._record()
        owner = record.get("supervisor") or {}
        if record["status"] in TERMINAL_STATUSES or procs.process_alive(owner.get("pid"), owner.get("startTicks")):
            return record
        return dict(record, status="Failed", error={
            "code": "SystemError", "message": f"The driver process (pid {owner.get('pid')}) that ran this sweep "
                                              "ended before the sweep finished; its trials ended with it."})

    def get_children(self, recursive=False, tags=None, properties=None, type=None, status=None,
                     _rehydrate_runs=True):
        from ..backends.local.run import LocalRun
        from ..backends.local.store import run_paths

        children = [LocalRun(run_paths(cid, self._paths.home)) for cid in self._record().get("children", [])]
        return iter([c for c in children if status is None or c.get_status() == status])

    def get_details(self) -> dict:
        iso = lambda t: None if t is None else datetime.datetime.fromtimestamp(t, datetime.timezone.utc).isoformat()
        record = self._effective()
        details = {"runId": self.id, "target": "local", "status": record["status"],
                   "startTimeUtc": iso(record.get("startTime")), "endTimeUtc": iso(record.get("endTime")),
                   "properties": record.get("properties", {}), "children": record.get("children", [])}
        if record.get("error"):
            details["error"] = {"error": record["error"]}
        return details

    def get_tags(self) -> dict:
        return dict(self._record().get("tags") or {})

    def wait_for_completion(self, show_output=False, wait_post_processing=False, raise_on_error=True) -> dict:
        while self.get_status() not in TERMINAL_STATUSES:
            time.sleep(POLL_SECONDS)
        details = self.get_details()
        if raise_on_error and details["status"] == "Failed":
            from ..exceptions import ActivityFailedException

            raise ActivityFailedException(f"Activity Failed:\n{json.dumps(details, indent=2)}")
        return details

    def cancel(self) -> None:
        if self.get_status() not in TERMINAL_STATUSES:
            owner = (self._record().get("supervisor") or {}).get("pid")
            raise UserErrorException(f"Sweep {self.id} is driven by process {owner}; cancel it there (hd_run.cancel() "
                                     "or Ctrl-C), which ends its trials too.")

    @property
    def properties(self) -> dict:
        return dict(self._record().get("properties") or {})

    def set_tags(self, tags) -> None:
        self._change(tags={**self.get_tags(), **{str(k): str(v) for k, v in dict(tags).items()}})

    def remove_tags(self, tags) -> None:
        drop = {tags} if isinstance(tags, str) else set(tags)
        self._change(tags={k: v for k, v in self.get_tags().items() if k not in drop})

    def add_properties(self, properties) -> None:
        self._change(properties={**self.properties, **{str(k): str(v) for k, v in dict(properties).items()}})

    def _change(self, **fields) -> None:
        from ..backends.local.store import write_json

        write_json(self._paths.run_json, {**self._record(), **fields})

    def get_environment(self):
        """The trials' environment (every trial runs in the same one)."""
        first = next(self.get_children(), None)
        return None if first is None else first.get_environment()
