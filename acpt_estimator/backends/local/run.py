"""LocalRun: the local backend's run handle over a run folder, for the driver and (via Run.get_context()) in ranks."""

from __future__ import annotations

import codecs
import json
import logging
import os
import shutil
import sys
import time
from pathlib import Path

from ...exceptions import ActivityFailedException, UserErrorException
from ...paths import contained
from ...run_handle import TERMINAL_STATUSES, RunHandle
from ...tracking import details as v1_details
from ...tracking import RecordingRun, from_mlflow, local_job_run, metrics_from_records, sort_records, tags_match
from .store import RunPaths, all_run_records, read_json, utc_iso

# The driver's machinery (procs, supervisor, interactive, models) is imported where used: a rank's Run.get_context()
# loads this module and needs none of it (~20 ms of every rank's start).

logger = logging.getLogger(__name__)
_POLL = 0.1
_CHUNK = 1 << 20  # show_output streams a log in pieces of this size


class LocalRun(RecordingRun, RunHandle):
    """A run of the local backend (v1 wraps it in a ScriptRun). ``job`` is set in the process that supervises it."""

    def __init__(self, paths: RunPaths, experiment=None, job=None, in_job=False):
        self._paths = paths
        self._run_dir = paths.root
        self._experiment = experiment
        self._job = job
        self._in_job = in_job
        if job is not None:
            job.details_of = self._details
        if in_job:
            self._writer_name = f"rank_{os.environ.get('RANK', '0')}"

    @classmethod
    def in_job(cls, run_dir: str) -> "LocalRun":
        """The run as seen from one of its ranks (what ``Run.get_context()`` returns there)."""
        run_dir = os.path.abspath(run_dir)
        return cls(RunPaths(os.path.dirname(os.path.dirname(run_dir)), os.path.basename(run_dir)), in_job=True)

    # ---- identity -----------------------------------------------------------------------------------
    @property
    def id(self) -> str:
        return self._paths.run_id

    @property
    def display_name(self) -> str:
        return self._record().get("displayName") or self.id

    def experiment_record(self) -> dict:
        """The experiment's name and the workspace fields the run was recorded with (v1 rebuilds the objects)."""
        record = self._record()
        return {"name": record["experimentName"], "workspace": record.get("workspace") or {}}

    def job_inputs(self) -> tuple[dict, bool]:
        return dict(self._record().get("inputs") or {}), self._in_job

    @property
    def path(self) -> str:
        """The run's folder in the local store."""
        return self._run_dir

    def _record(self) -> dict:
        if self._job is not None:
            return self._job.record
        # The driver writes run.json while mpiexec starts; a rank asking this early waits a moment for it.
        deadline = time.monotonic() + (10 if self._in_job else 0)
        while True:
            try:
                return read_json(self._paths.run_json)
            except FileNotFoundError:
                if time.monotonic() >= deadline:
                    raise UserErrorException(f"Run {self.id} has no record at {self._paths.run_json}; was the "
                                             "store (ACPT_ESTIMATOR_HOME) moved or deleted?") from None
                time.sleep(0.01)

    def _initial(self, key: str) -> dict:
        return self._record().get(key) or {}

    # ---- status and details -------------------------------------------------------------------------
    def get_status(self) -> str:
        if self._in_job:
            return "Running"
        return self._effective(self._record())["status"]

    def _effective(self, record: dict) -> dict:
        """A run whose driver died is Running while its ranks live, then final (recovery.settle), never stale."""
        if record.get("status") in TERMINAL_STATUSES or self._job is not None or record.get("runType") == "mlflow":
            return record  # an MLflow-started run's status is MLflow's (mlflow_sqlite.adopt_driver_runs)
        from .procs import process_alive
        from .recovery import settle

        owner = record.get("supervisor") or {}
        if process_alive(owner.get("pid"), owner.get("startTicks")):
            return record

        return settle(self._paths, record)

    def get_details(self) -> dict:
        return self._details(self._effective(self._record()))

    def _details(self, record: dict) -> dict:
        """The v1 details of this run with ``record`` (its run.json)."""
        found = {
            "runId": self.id, "target": record.get("target", "local"), "status": record["status"],
            "startTimeUtc": utc_iso(record.get("startTime")), "endTimeUtc": utc_iso(record.get("endTime")),
            "properties": self.get_properties(), "inputDatasets": record.get("inputDatasets", []),
            "outputDatasets": record.get("outputDatasets", []), "runDefinition": record.get("runDefinition", {}),
            "logFiles": self._log_files(), "submittedBy": record.get("submittedBy")}
        if record.get("warnings"):
            found["warnings"] = record["warnings"]
        return v1_details(found, record.get("error"))

    def _log_files(self) -> dict:
        found = {}
        for folder in ("user_logs", "system_logs"):
            try:
                names = sorted(os.listdir(os.path.join(self._paths.files, folder)))
            except FileNotFoundError:
                continue
            found.update({f"{folder}/{n}": os.path.join(self._paths.files, folder, n) for n in names})
        return found

    def get_portal_url(self) -> str:
        return Path(self._run_dir).as_uri()

    # ---- waiting ------------------------------------------------------------------------------------
    def wait_for_completion(self, show_output=False, wait_post_processing=False, raise_on_error=True) -> dict:
        if self._in_job:
            raise UserErrorException("wait_for_completion() was called on the run of the job it runs in; it would "
                                     "wait for itself. Call it from the driver script instead.")
        stream = _Tail(self._rank0_log()) if show_output else None
        if show_output:
            print(f"RunId: {self.id}\nWeb View: {self.get_portal_url()}\n")
            print(f"Streaming {stream.name}\n{'=' * (10 + len(stream.name))}\n", flush=True)
        try:
            while not self._finished(_POLL):
                if stream:
                    stream.pump()
        except KeyboardInterrupt:
            # Ctrl-C while waiting: the job must not outlive the driver (the signal handler asked it to end).
            self.cancel()
            self._finished(30)
            logger.warning("Interrupted: local run %s was canceled and all of its processes ended.", self.id)
            raise
        if stream:
            stream.pump(final=True)
        from .supervisor import restore_interrupt_handlers

        restore_interrupt_handlers()  # the driver's own handlers again, once nothing of it runs
        # Made by the watcher with the early final record, while mpiexec ended (LocalJob._ranks_done): ~0.1 ms less
        # to do here once the run is over.
        details = (self._job.take_final_details() if self._job is not None else None) or self.get_details()
        if show_output:
            print(f"\nExecution Summary\n=================\nRunId: {self.id}\nWeb View: {self.get_portal_url()}\n",
                  flush=True)
        if raise_on_error and details.get("error"):
            error = details["error"]["error"]
            exc = ActivityFailedException("Activity Failed:\n" + json.dumps(details["error"], indent=4))
            exc.rank, exc.exit_code, exc.details = error.get("rank"), error.get("exitCode"), details
            raise exc
        return details

    def _finished(self, timeout: float) -> bool:
        if self._job is not None:
            return self._job.done.wait(timeout)
        if self.get_status() in TERMINAL_STATUSES:
            return True
        time.sleep(timeout)
        return False

    def _rank0_log(self) -> str:
        single = os.path.join(self._paths.user_logs, "std_log.txt")
        world = (self._record().get("runDefinition") or {}).get("pyTorch", {}).get("processCount", 1)
        return single if world == 1 else os.path.join(self._paths.user_logs, "std_log_process_0.txt")

    def cancel(self) -> None:
        if self._interactive:
            from . import interactive

            if self.get_status() not in TERMINAL_STATUSES:
                interactive.finish(self._paths, "Canceled")
            return
        if self._in_job:
            logger.warning("cancel is not supported for submitted runs.")
            return
        if self._job is not None:
            self._job.cancel("canceled")
            return
        record = self._record()
        if record.get("status") in TERMINAL_STATUSES:
            return
        from .procs import process_alive

        owner = record.get("supervisor") or {}
        if process_alive(owner.get("pid"), owner.get("startTicks")):
            # the supervising process ends the ranks and records it; O_NOFOLLOW: never through a link the job left
            os.close(os.open(self._paths.cancel_flag, os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW, 0o644))
            deadline = time.monotonic() + 15
            while time.monotonic() < deadline and self.get_status() not in TERMINAL_STATUSES:
                time.sleep(_POLL)
            return
        from .recovery import settle

        settle(self._paths, record, reason="canceled")

    # ---- metrics from MLflow too --------------------------------------------------------------------
    def get_metrics(self, name=None) -> dict:
        return metrics_from_records(sort_records(self._records() + self._mlflow_records()), name, run_id=self.id)

    def _mlflow_records(self) -> list:
        """Metrics a script logged with mlflow.log_metric (not through run.log), as records."""
        mlflow = self._record().get("mlflow") or {}
        try:
            exported = set(read_json(os.path.join(self._paths.metrics, "mlflow_exported.json")))
        except (OSError, ValueError):
            exported = set()
        if mlflow.get("runId") and not mlflow.get("copyOnly"):  # the job used MLflow: its own metrics too
            from . import mlflow_sqlite

            return from_mlflow(mlflow_sqlite.metric_histories(self._paths.home, mlflow["runId"], skip=exported), {})
        if mlflow.get("experimentId"):  # a run written before the SQLite store: MLflow's file-store layout
            from . import mlflow_store

            folder = mlflow_store.run_folder(self._paths.home, mlflow["experimentId"], self.id)
            return from_mlflow(mlflow_store.read_metrics(folder, skip=exported), {})
        return []

    # ---- files --------------------------------------------------------------------------------------
    def get_file_names(self) -> list:
        names = []
        for root, _, files in os.walk(self._paths.files):
            rel = os.path.relpath(root, self._paths.files)
            for file_name in files:
                names.append(file_name if rel == "." else f"{rel}/{file_name}".replace(os.sep, "/"))
        return sorted(names)

    def download_file(self, name, output_file_path=None, _validate_checksum=False) -> None:
        source = contained(self._paths.files, name, parameter="name", what=f"the files of run {self.id}",
                           fix="Pass a name from run.get_file_names(), e.g. 'outputs/model.pt'.")
        if not os.path.isfile(source):
            raise UserErrorException(f"File with path {name} was not found in run {self.id}; its files are: "
                                     f"{self.get_file_names()[:20]}.")
        target = output_file_path or os.path.basename(name)
        if os.path.isdir(target):
            target = os.path.join(target, os.path.basename(name))
        if os.path.dirname(target):
            os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(source, target)

    def download_files(self, prefix=None, output_directory=None, output_paths=None, batch_size=100,
                       append_prefix=True, timeout_seconds=None) -> None:
        names = [n for n in self.get_file_names() if not prefix or n.startswith(prefix)]
        if output_paths is not None and len(output_paths) != len(names):
            raise UserErrorException(f"output_paths has {len(output_paths)} entries for {len(names)} files "
                                     f"under prefix {prefix!r}; pass one path per file or leave it out.")
        for index, name in enumerate(names):
            if output_paths is not None:
                target = output_paths[index]
            else:
                relative = name if append_prefix or not prefix else name[len(prefix):].lstrip("/")
                target = os.path.join(output_directory or ".", *relative.split("/"))
            self.download_file(name, target)

    def register_model(self, model_name, model_path=None, tags=None, properties=None, model_framework=None,
                       model_framework_version=None, description=None, datasets=None, sample_input_dataset=None,
                       sample_output_dataset=None, resource_configuration=None, **kwargs):
        """The registered model's record (v1 wraps it in a Model, which update/add_tags/download like a looked-up
        one)."""
        import attrs

        from . import models

        record = self._record()
        registered = models.register(
            store_home=self._paths.home, run_id=self.id, experiment_name=record.get("experimentName"),
            files_dir=self._paths.files, file_names=self.get_file_names(), model_name=model_name,
            model_path=model_path or model_name, tags=tags, properties=properties, description=description,
            model_framework=model_framework, model_framework_version=model_framework_version,
            datasets=dict(datasets or []))
        return attrs.asdict(registered)

    # ---- v1 odds and ends ---------------------------------------------------------------------------
    def get_children(self, recursive=False, tags=None, properties=None, type=None, status=None, _rehydrate_runs=True):
        """Runs of the store whose parent is this run (child_run/create_children), oldest first; with
        ``recursive``, their descendants too."""
        parents, found = {self.id}, []
        for record in reversed(all_run_records(self._paths.home)):  # oldest first: parents before their children
            if record.get("parentRunId") in parents:
                found.append(LocalRun(RunPaths(self._paths.home, record["runId"]), experiment=self._experiment))
                if recursive:
                    parents.add(record["runId"])
        return iter([c for c in found if (status is None or c.get_status() == status) and tags_match(c.get_tags(), tags)
                     and tags_match(c.properties, properties) and (type is None or c.type == type)])

    # ---- interactive runs (experiment.start_logging, child_run): this process sets the status -------
    @property
    def _interactive(self) -> bool:
        return not self._in_job and bool(self._record().get("interactive"))

    def _new_child(self, run_id, name):
        return start_interactive(self.experiment, run_id, parent_id=self.id, display_name=name,
                                 store_home=self._paths.home)

    def start(self):
        if not self._interactive:
            return RunHandle.start(self)
        if self.get_status() in TERMINAL_STATUSES:
            raise UserErrorException(f"Run {self.id} has ended ({self.get_status()}); start a new one with "
                                     "experiment.start_logging().")

    def complete(self, _set_status=True):
        if not self._interactive:
            return RecordingRun.complete(self) if self._in_job else RunHandle.complete(self)
        if _set_status:
            from . import interactive

            interactive.finish(self._paths, "Completed")

    def fail(self, error_details=None, error_code=None, _set_status=True):
        if not self._interactive:
            return RecordingRun.fail(self, error_details, error_code) if self._in_job else RunHandle.fail(self)
        if _set_status:
            from . import interactive

            interactive.finish(self._paths, "Failed", {"code": error_code or "UserError",
                                                       "message": "" if error_details is None else str(error_details)})

    @property
    def description(self):
        return self._record().get("description")

    def _parent_id(self):
        return self._record().get("parentRunId")

    def _number(self):
        """Runs are numbered in the order the store created them, from 1."""
        created = self._record().get("createdTime") or 0
        return sum(1 for r in all_run_records(self._paths.home) if (r.get("createdTime") or 0) <= created)

    def get_environment(self):
        return (self._record().get("runDefinition") or {}).get("environment")


def submit(spec, experiment, parent_run_id: str | None = None) -> LocalRun:
    """Start ``spec`` locally; its LocalRun handle at once (v1's ``exp.submit``). ``parent_run_id``: the pipeline
    run a step belongs to."""
    from .job import start

    paths, job = start(spec, experiment, parent_run_id=parent_run_id)
    return LocalRun(paths, experiment=experiment, job=job)


def start_interactive(experiment, run_id=None, parent_id=None, display_name=None, store_home=None) -> LocalRun:
    """A new interactive run (``experiment.start_logging()``, ``run.child_run()``) in the local store."""
    from . import interactive

    paths = interactive.start(experiment, run_id, parent_id=parent_id, display_name=display_name,
                              store_home=store_home)
    return LocalRun(paths, experiment=experiment)


_job_run = None


def run_from_job_environment():
    """The handle of the run this process is a rank of (set up by the local launcher), else None."""
    global _job_run
    found = local_job_run()
    if found is None or not os.path.isdir(found[0]):
        return None
    run_dir, run_id = found
    if _job_run is None or _job_run.id != run_id:
        _job_run = LocalRun.in_job(run_dir)
    return _job_run


class _Tail:
    """Follows one log file for show_output, decoding UTF-8 across chunk boundaries."""

    def __init__(self, path: str):
        self.path = path
        self.name = "/".join(Path(path).parts[-2:])
        self._offset = 0
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")

    def pump(self, final: bool = False) -> None:
        """Copy what the log gained to stdout, at most CHUNK bytes in memory at a time (logs may be huge)."""
        try:
            handle = open(self.path, "rb")
        except FileNotFoundError:
            return
        with handle:
            handle.seek(self._offset)
            while True:
                chunk = handle.read(_CHUNK)
                self._offset += len(chunk)
                text = self._decoder.decode(chunk, final=final and not chunk)
                if text:
                    sys.stdout.write(text)
                if not chunk:
                    break
        sys.stdout.flush()
