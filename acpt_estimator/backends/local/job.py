"""One local job: prepare the run folder, launch it under a Supervisor, then collect and record the result."""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import shutil
import signal
import socket
import stat
import sys
import threading
import time

import attrs

from ...exceptions import ExperimentExecutionException
from ...job_runtime import needs_job_runtime
from ...snapshot import copy_snapshot
from ...snapshot_guard import check_snapshot
from ...spec import InputRef, Literal, OutputRef
from . import inputs as data
from .packages import warn_missing
from . import mlflow_sqlite, procs, rank_exec, spare_folders, store_view
from .gate import Gate
from .launch import (EXIT_NO_DRIVER, EXIT_NO_WORKDIR, EXIT_UNTRACKED, GATE_NAME, RANK_BODY_NAME, RANK_PLAN_NAME,
                     RANK_SCRIPT_NAME, READY_NAME, LaunchContext, check_world_size, environment, gate_by_lines,
                     log_name, plan_launcher, plan_ranks)
from .mpi import find_launcher
from ...names import new_run_id
from .store import (RunPaths, describe_os_error, disk_full_note, home, release_reserve, reserve, stage_final_json,
                    user, within, write_final_json, write_json)
from .supervisor import Supervisor, request_launcher

logger = logging.getLogger(__name__)
TAIL_LINES = 30
DETAILS_WAIT_SECONDS = 1.0
LAUNCHER_LOG = "system_logs/mpiexec.txt"


class LocalJob:
    """The in-process state of a running local job; run.json mirrors it for other processes."""

    def __init__(self, paths: RunPaths, record: dict, max_seconds, tracker, folder_later: bool = False):
        """``folder_later``: the run folder is made behind the gate (_prepare), after mpiexec's start, whose log then
        starts beside it (RunPaths.launcher_log_beside); _finished waits until that was done or failed."""
        self.paths, self.record = paths, record
        self.folder_later = folder_later
        self.early_log = paths.launcher_log_beside if folder_later else paths.launcher_log
        self.folder_made = not folder_later  # the run folder exists (made by _prepare where folder_later)
        self.folder_tried = threading.Event()  # ... or could not be made: set once either is known
        if not folder_later:
            self.folder_tried.set()
        self.spare = False  # the run folder is a spare claimed whole (spare_folders): its skeleton is there
        self.launcher = None  # launch.LauncherPlan: what mpiexec starts with (_launch_first)
        self.mlflow_run = None  # MLflow's id, for jobs using MLflow (_plan)
        self.gate: Gate | None = None  # where the ranks wait until the run is prepared and tracked (_launch_first)
        self.launch_files: list = []  # what the launch wrote in the run folder (the gate, plans): finalize removes it
        self.view = False  # the job sees the store read-only (store_view), and ...
        self.granter = None  # ... store_view.Granter makes the new runs and models it asks for (_prepare)
        self.released = False  # the run is prepared: its code runs once the launcher is tracked
        self.discarded = False  # ended before its code ever ran; its folder is removed (_discard)
        self._lock = threading.Lock()
        # The run is released (Running) or has ended (its final record is _finished's), never both in the wrong order:
        # a launcher that ends while the run is still being prepared must not leave it Running.
        self._release_lock = threading.Lock()
        self._ended = False
        self._revision = 0  # counts the record's changes: a staged final record is of the revision it was made from
        self._staged = None  # (exits, fields, StagedText, revision): the final record made early (_ranks_done)
        # Held while the final record is made early (_ranks_done, on driver_events' thread): _finished, on the watcher's,
        # takes it only once that is done, and nothing is staged once _finished has begun (_ended).
        self._staging = threading.Lock()
        # The run's v1 details for a final record, given it (LocalRun's, set when it takes this job): made for the
        # early final record, while the launcher ends and the record is committed, instead of by the waiting driver
        # after (take_final_details).
        self.details_of = None
        self._early_details = None  # what details_of made of the staged record (or None), once _details_made is set
        self._details_made = threading.Event()
        self._details_committed = False  # the staged record was committed: _early_details are the run's
        # A descriptor of the record's previous version, whose name the commit removed: closed by _after_done, when
        # ext4 frees the file (most of an unlink's cost), once nobody waits; nothing of the run's changes in the store
        # after its end, when its caller may remove the store.
        self._held_old = None
        self.tracker = tracker  # procs.new_tracker(): how every process of the job is found
        self.supervisor = Supervisor(run_id=record["runId"], status_dir=paths.status, cancel_flag=paths.cancel_flag,
                                     launcher_log=self.early_log, max_seconds=max_seconds,
                                     world_size=_world_size(record), on_finished=self._finished,
                                     on_ranks_done=self._ranks_done, after_done=self._after_done)

    @property
    def status(self) -> str:
        return self.record["status"]

    @property
    def done(self) -> threading.Event:
        return self.supervisor.done

    def start(self, prepare) -> None:
        """Start mpiexec and, while the watcher starts it, ``prepare`` the run (its ranks' plan included) and write
        its record; the ranks wait at the gate until both that and the launcher's tracking are done. If either
        fails, the caller discards the run (nothing of the user's ran)."""
        def meanwhile() -> None:
            # A spare for the launch after this one, made on a thread of its own from now on, behind the gate: the
            # same work before mpiexec's command delays the job about ten times as much (issue 24's measurements).
            spare_folders.build_wanted(self.paths.home)
            prepare()
            with self._release_lock:
                if self._ended:  # the launcher ended already: nothing ran, and the final record says why
                    return
                self._set(status="Running", startTime=time.time())
                self.released = True
            self.gate.arrive()

        self.supervisor.launch(self.launcher.argv, self.launcher.env, self.tracker, meanwhile=meanwhile,
                               on_tracked=self.gate.arrive)

    def cancel(self, reason: str = "canceled") -> None:
        self.supervisor.request_end(reason)

    def _set(self, persist: bool = True, final: bool = False, **fields) -> None:
        with self._lock:
            self.record.update(fields)
            self._revision += 1
            if final:
                write_final_json(self.paths, self.record)
            elif persist:
                write_json(self.paths.run_json, self.record)

    def _ranks_done(self, expected) -> None:
        """Every rank ended with code 0 and the launcher is ending (about 0.3 ms): finalize against the ``expected``
        outcome now and stage the final record, which _finished commits once the launcher's end confirms it. Where
        it does not (the launcher failed, processes were left over, a cancel came first), _finished does it all
        again: each step of finalize may run twice. Jobs with output datasets to upload or register wait."""
        with self._staging:
            if self._ended or self.discarded or not self.released or _has_output_datasets(self.record):
                return
            details_of = self.details_of  # (taken here: the commit may drop it from the job as soon as this is out)
            final = self._stage_final(expected)
        # Outside the staging lock: the watcher commits the record meanwhile once the launcher has ended (the details
        # were a third of the staging, which the commit waited for), and the waiting driver takes them when made.
        details = None
        try:
            if details_of is not None:
                details = details_of(final)
        except Exception:  # noqa: BLE001 - only a head start: the waiting driver makes them itself then
            logger.debug("Making the details of local run %s early failed", self.record["runId"], exc_info=True)
        finally:
            self._early_details = details
            self._details_made.set()

    def _stage_final(self, expected) -> dict:
        self.gate.close()
        if self.granter is not None:
            self.granter.stop()  # the ranks have ended; anything they left behind is ended when the launcher is
        # ./outputs and ./logs are collected at the commit: a process the ranks left behind may still write there
        # until it is ended (_reap), and the folders must still be there for it.
        fields = finalize(self.paths, self.record, expected, collect=False, launch_files=self.launch_files,
                          early_log=self.early_log)
        with self._lock:
            final, revision = {**self.record, **fields}, self._revision
            staged = stage_final_json(self.paths, final)
        with self._lock:
            self._staged = (expected.exits, fields, staged, revision)
        return final

    def _commit_staged(self, outcome) -> bool:
        """Put the early final record in place if ``outcome`` is the one it was made for; else drop it."""
        with self._staging:  # (one being made now is waited for)
            staged, self._staged = self._staged, None
        if staged is None:
            return False
        exits, fields, pending, revision = staged
        if outcome.reason != "completed" or outcome.exits != exits or outcome.stragglers or revision != self._revision:
            pending.discard()
            return False
        try:
            problems = _collect(self.paths)
        except Exception as err:  # noqa: BLE001 - as in finalize: in the run's warnings
            problems = [f"Could not collect ./outputs and ./logs: {describe_os_error(err)}"]
        if problems:  # the staged record lacks them: written the usual way
            pending.discard()
            self._write_final({**fields, "warnings": fields["warnings"] + problems})
            return True
        with self._lock:
            try:
                self._held_old = pending.commit(hold_old=True)  # closed once the run is done (_after_done)
                self.record.update(fields)
                self._details_committed = True
                return True
            except OSError:  # written below the usual way, which says so if it cannot
                pending.discard()
        self._write_final(fields)
        return True

    def _finished(self, outcome) -> None:
        with self._release_lock:
            self._ended = True
        self.gate.close()
        if self.spare or self.folder_later:  # (a job that could have claimed one: the next submission makes one)
            spare_folders.want(self.paths, _world_size(self.record))
        spare_folders.wait_idle()  # (made while this job was submitted: done long since, but for a job of ~1 ms)
        # A launcher that ended at once may do so before its run folder is made (folder_later): the record goes there.
        self.folder_tried.wait()
        if self.discarded or not self.folder_made:  # never ran: no record to finish, the folder goes (_discard)
            self.details_of = None
            return
        committed = self._commit_staged(outcome)
        self.details_of = None  # nothing is staged any more: and the job no longer holds its LocalRun (a cycle)
        if committed:
            return
        self._set(persist=False, status="Finalizing")
        if self.granter is not None:
            self.granter.stop()
        if self.spare:  # (where every rank ended well, each took its files: this is the way of the other ends)
            spare_folders.remove_rank_files(self.paths)
        self._write_final(finalize(self.paths, self.record, outcome, launch_files=self.launch_files,
                                   early_log=self.early_log))

    def take_final_details(self) -> dict | None:
        """The run's details made for its final record as committed (details_of), once; None where there are none.
        Waits for them while they are being made (_ranks_done makes them right after staging the record)."""
        with self._lock:
            committed, self._details_committed = self._details_committed, False
        # (A second guards a thread that never got to set the event: the caller then makes them itself.)
        if not committed or not self._details_made.wait(DETAILS_WAIT_SECONDS):
            return None
        details, self._early_details = self._early_details, None
        return details

    def _after_done(self) -> None:
        """Once the run's record is final (the watcher, after ``done``): the record's previous version let go, the store
        requests' watch and descriptor closed. Nothing in the store changes here: a caller may be removing it."""
        if self._held_old is not None:
            os.close(self._held_old)
            self._held_old = None
        if self.granter is not None:
            self.granter.close()

    def _write_final(self, fields: dict) -> None:
        try:
            self._set(final=True, **fields)
        except OSError as err:  # the in-memory record (what this driver reports) is final all the same
            self.record.update(fields)
            logger.error("Local run %s ended %s, but its record could not be written to %s: %s",
                         self.record["runId"], fields["status"], self.paths.run_json, describe_os_error(err))


def _has_output_datasets(record: dict) -> bool:
    return any(output.get("datastore") for output in record.get("outputDatasets") or [])


def _world_size(record: dict) -> int:
    return (record.get("runDefinition") or {}).get("pyTorch", {}).get("processCount") or 1


def finalize(paths: RunPaths, record: dict, outcome, collect: bool = True, launch_files=None,
             early_log: str | None = None) -> dict:
    """The final fields of a run's record for ``outcome``; outputs collected (unless not ``collect``: the caller does
    it, LocalJob._commit_staged) and MLflow finished on the way. ``launch_files``: what the launch wrote in the run
    folder, where the caller knows it (LocalJob.launch_files); else every name a launch may write is looked for.
    ``early_log``: the name mpiexec's log started under, where the caller knows it (else both are looked for).

    Used by the supervising driver, and by whoever reopens a run whose driver died. Whatever goes wrong while
    tidying up, the run must still reach its final status. Nothing of the launch stays in the folder: a FIFO left
    there would block whoever reads every file of a finished run.
    """
    _remove_launch_files(paths, launch_files)
    paths.settle_launcher_log(early_log)
    status, error = _verdict(outcome, record, paths)
    fields = {"status": status, "endTime": outcome.ended, "error": error, "endReason": outcome.reason,
              "ranks": [{"rank": e.rank, "exitCode": e.code} for e in outcome.exits], "warnings": []}
    for step, action in (("collect ./outputs and ./logs", lambda: _collect(paths) if collect else []),
                         ("upload output datasets", lambda: data.collect_outputs(
                             record, paths.home, status == "Completed")),
                         ("copy metrics into the MLflow store", lambda: _export_mlflow(paths, record))):
        try:
            fields["warnings"] += action() or []
        except Exception as err:  # noqa: BLE001 - reported in the run's warnings instead
            fields["warnings"].append(f"Could not {step}: {describe_os_error(err)}")
    # The room set aside is for the last two writes only (the copies above may have filled the disk): the MLflow
    # run's status here, the run's record by the caller. Without an MLflow run, the record is written over the
    # reserve's first bytes (store.stage_final_json), which then frees the rest.
    if (record.get("mlflow") or {}).get("runId"):
        release_reserve(paths)
        try:
            mlflow_sqlite.finish_run(paths, record, status, outcome.ended)
        except Exception as err:  # noqa: BLE001 - a full disk (sqlite3 raises its own errors): in the warnings
            fields["warnings"].append(f"Could not mark the MLflow run {status}: {describe_os_error(err)}")
    return fields


def start(spec, experiment, parent_run_id: str | None = None) -> tuple[RunPaths, "LocalJob"]:
    """Start ``spec`` on this machine; returns its run folder and supervised job at once (``run.submit`` makes the
    LocalRun handle of them).

    ``parent_run_id``: the pipeline run a step belongs to (the step's ``run.parent``)."""
    store_home = home()
    check_world_size(spec.distribution, len(os.sched_getaffinity(0)))  # before anything is written
    launcher = find_launcher()  # fail before creating anything when there is no MPI
    warn_missing(spec.environment)
    run_id = new_run_id(spec.experiment_name or experiment.name)
    # First: making the job's cgroup starts the kernel's wait for the launcher's move into it (cgroup.warm_up),
    # which then overlaps everything below. Where the launcher starts inside it, the spawn server makes it instead,
    # asked with the launcher's process (Supervisor.prepare), on its CPU while this thread plans the launch.
    tracker = procs.new_tracker(run_id, defer=True)
    try:
        sources = data.resolve(spec, store_home)  # every input checked before anything is written
    except BaseException:
        tracker.release()
        raise
    paths = RunPaths(store_home, run_id)
    rank_launcher = rank_exec.ready() or ""
    folder_later = _folder_after_launch(spec, paths, rank_launcher)
    # Where the folder could be made behind the gate, a spare one is claimed instead where there is one: a rename
    # before mpiexec's command in place of its log's creation, and seven entries fewer behind the gate.
    spare = folder_later and spare_folders.claim(paths)
    job = waiting = None
    try:
        if not folder_later:
            paths.create(ranks_later=True)  # the rest behind the gate (_prepare)
        output_paths = data.resolve_outputs(spec, store_home, run_id)
        input_paths, mounts = data.materialize(spec, sources, paths.root)
        # The launcher's process is asked of the spawn server as soon as what it needs is known (its cgroup and
        # namespace): the server's part of the launch then overlaps the rest of the planning (request_launcher).
        view = _store_view_applies(store_home)
        waiting = request_launcher(tracker, view or bool(mounts), bool(rank_launcher))
        now = time.time()
        record = _initial_record(spec, experiment, run_id, now, input_paths, output_paths, launcher)
        if parent_run_id is not None:
            record["parentRunId"] = parent_run_id
        job = LocalJob(paths, record, spec.max_run_duration_seconds, tracker, folder_later=folder_later and not spare)
        job.spare, job.view = spare, view
        ctx = _launch_first(job, spec, launcher, input_paths, output_paths, bool(mounts), rank_launcher, waiting)
        # mpiexec starts now; the snapshot, the ranks' plan and the rest are made while it starts its proxy and the
        # ranks' launchers, which wait at the gate (launch.render_gate) until that is done and the launcher is
        # tracked. A snapshot refused then (check_snapshot) ends the job before anything of the user's ran.
        job.start(lambda: _prepare(job, spec, ctx, mounts, now))
        if not job.view and not store_view.protected(store_home):
            _say_store_is_writable(store_home, run_id)
    except BaseException as err:
        if waiting is not None:  # (not started: ended here; a launch already sent is the job's, ended by _discard)
            waiting.cancel()
        _discard(paths, job, tracker)
        if isinstance(err, OSError) and err.errno in (errno.ENOSPC, errno.EDQUOT):
            raise ExperimentExecutionException(
                f"The local run could not be started: {describe_os_error(err)}. Free some space on the disk "
                f"holding {store_home} (or point ACPT_ESTIMATOR_HOME at a larger disk) and submit again.") from err
        raise
    return paths, job


_told_writable: set = set()


def _say_store_is_writable(store_home: str, run_id: str) -> None:
    """Said once per store and driver when a job starts: what a job's code can change (issue 23)."""
    if store_home in _told_writable:
        return
    _told_writable.add(store_home)
    logger.warning(
        "Local run %s runs with write access to the whole local run store %s, like the driver: its code could "
        "change other runs' records, registered models and datastores there (jobs need to write in it: nested "
        "jobs, child runs, run.register_model). Run code you do not trust in a container of its own, with its own "
        "ACPT_ESTIMATOR_HOME.", run_id, store_home)


def _discard(paths: RunPaths, job, tracker) -> None:
    """A run that never started leaves nothing behind: no half-written folder, no MLflow run left RUNNING."""
    launched = job is not None and job.supervisor.process is not None
    if launched and job.released:
        job.cancel("interrupted")  # started after all (Ctrl-C in the last moment): it ends with a final record
        job.supervisor.wait_ended()
        return
    if job is not None:
        job.discarded = True
        job.folder_tried.set()  # (then: a watcher's _finished waits for the run folder, which will not be made now)
    if launched:  # held at the gate, so nothing of the user's ran: ended (the watcher releases the tracker)
        job.cancel("failed")
        job.supervisor.wait_ended()
    else:
        if job is not None:  # first: a launcher's process made ahead (Supervisor.prepare) is in the cgroup until then
            job.supervisor.abandon()
        if tracker is not None:
            tracker.release()
    if job is not None:
        job.supervisor.abandon()
        if job.gate is not None:
            job.gate.close()
        if job.granter is not None:
            job.granter.close()
        if job.mlflow_run:  # never left RUNNING: the MLflow run of a job that never started is deleted
            with contextlib.suppress(Exception):
                mlflow_sqlite.store(paths.home).delete_run(job.mlflow_run)
    spare_folders.wait_idle()  # (a spare made meanwhile is whole before the caller hears of the failure)
    shutil.rmtree(paths.root, ignore_errors=True)
    with contextlib.suppress(FileNotFoundError):  # mpiexec's log beside the folder (folder_later), where it stayed
        os.unlink(paths.launcher_log_beside)


def _folder_after_launch(spec, paths: RunPaths, rank_launcher: str) -> bool:
    """Whether the run folder can be made behind the gate, after mpiexec's start (LocalJob.folder_later), which
    spares the launch its mkdir (~0.1 ms here) before mpiexec starts: where the C rank launcher waits for a gate that
    appears later (its lines alone: no ready file), no input is materialized in the folder before the launch, the
    folder is this driver's to make (not a read-only store's driver's, store_view), and the store's runs/ exists to
    hold mpiexec's log meanwhile (RunPaths.launcher_log_beside)."""
    return (gate_by_lines(rank_launcher, spec.distribution.world_size) and not spec.inputs
            and not store_view.protected(paths.home) and os.path.isdir(os.path.dirname(paths.root)))


def _launch_first(job: LocalJob, spec, launcher, input_paths, output_paths, binds_inputs: bool,
                  rank_launcher: str, waiting) -> LaunchContext:
    """What mpiexec needs before it starts: its process asked of the spawn server already (``waiting``, from
    request_launcher; None where that could not be had) or its namespace asked of the watcher thread (made
    meanwhile), the gate (its FIFO made behind it where the run folder is), its command line and environment (and
    rank.sh for the shell). Returns the launch's context, completed by _plan."""
    paths, record = job.paths, job.record
    # The store view's binds (known once the snapshot says whether the job uses MLflow) and the inputs' are made in
    # the namespace by the watcher thread later (Supervisor.bind), still before the gate opens. mpiexec may stay at
    # the spawn server's SCHED_BATCH where every rank starts through the C rank launcher (rank_exec.c says why).
    job.supervisor.prepare(namespace=job.view or binds_inputs, tracker=job.tracker, keep_batch=bool(rank_launcher),
                           waiting=waiting)
    ctx = LaunchContext(
        run_id=record["runId"], experiment_name=record["experimentName"], run_dir=paths.root, workdir=paths.snapshot,
        user_logs=paths.user_logs, status_dir=paths.status, store_home=paths.home, python=sys.executable,
        launcher=launcher, master_port=0, input_paths=input_paths, output_paths=output_paths, base_env=environment(),
        workspace=record["workspace"], is_root=os.geteuid() == 0, cores=len(os.sched_getaffinity(0)),
        cgroup=getattr(job.tracker, "proc_name", None) or "", driver_pid=os.getpid(),
        rank_exec=rank_launcher)
    world = _world_size(record)
    job.gate = Gate(paths.root, world, ready_file=not gate_by_lines(ctx.rank_exec, world), make=not job.folder_later,
                    fifo_made=job.spare)
    job.launch_files += [job.gate.fifo, *([job.gate.ready] if job.gate.ready else [])]
    job.launcher = plan_launcher(spec, ctx)
    if job.launcher.entry_path:
        job.launch_files.append(job.launcher.entry_path)
        _write_private(job.launcher.entry_path, job.launcher.entry_script)
    return ctx


def _plan(job: LocalJob, spec, ctx: LaunchContext, input_mounts, now, files) -> None:
    """Behind the gate, while mpiexec starts: the MLflow run of a job that uses MLflow (its id is in the ranks'
    environment), the binds of the store view and the inputs, the ranks' plan."""
    paths, record = job.paths, job.record
    store_home, run_id, experiment_name = paths.home, record["runId"], record["experimentName"]
    # A job that uses MLflow gets its MLflow run first (MLFLOW_RUN_ID, as on v2); the others none at launch. Its
    # sources are read where they are: the snapshot is copied from the same listing (files) next.
    if mlflow_sqlite.job_uses_mlflow(spec.source_directory, files, spec.command or ""):
        job.mlflow_run = mlflow_sqlite.start_run(store_home, experiment_name, run_id, int(now * 1000))
    record["tracking"] = job.tracker.describe()
    # The store's binds first: inputs lie in the run folder.
    mounts = (*(_store_view_mounts(job, ctx.output_paths) if job.view else ()), *input_mounts)
    job.supervisor.bind(mounts)  # made on the watcher thread while the rest is planned
    ctx = attrs.evolve(
        ctx, master_port=_free_port(), mounts=tuple(mounts),
        base_env={**ctx.base_env, **store_view.grant_env(paths.root, store_home)} if job.view else ctx.base_env,
        mlflow_tracking_uri=mlflow_sqlite.tracking_uri(store_home), mlflow_run_id=job.mlflow_run or "",
        rendezvous_port=_free_port() if needs_job_runtime(spec) else 0)
    ranks = plan_ranks(spec, ctx, job.launcher.env)
    # rank.plan (or rank.body) holds the arguments with $VARs expanded (secrets included): only this user may read
    # it, and finalize() removes it.
    job.launch_files.append(ranks.script_path)
    _write_private(ranks.script_path, ranks.script)
    record["runDefinition"]["launcher"] = {
        "path": ctx.launcher.path, "flavour": ctx.launcher.flavour, "version": ctx.launcher.version,
        "argv": list(job.launcher.argv),
        "binds": [{"source": m.source, "target": m.target, "readOnly": not m.writable} for m in mounts]}
    record["mlflow"] = {"runId": job.mlflow_run, "trackingUri": ctx.mlflow_tracking_uri} if job.mlflow_run else {}


def _write_private(path: str, content: str | bytes) -> None:
    raw = content.encode("utf-8", "surrogateescape") if isinstance(content, str) else content
    with os.fdopen(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600), "wb") as handle:
        handle.write(raw)


def _prepare(job: LocalJob, spec, ctx: LaunchContext, input_mounts, now) -> None:
    """Behind the gate, while mpiexec starts: the snapshot checked, the ranks' plan, the room for the last writes,
    the snapshot copied, the store view's grants."""
    if job.folder_later:  # first: the ranks look for the gate's FIFO in it, and the watcher's _finished waits for it
        try:
            began = time.perf_counter()
            job.paths.create(ranks_later=True)
            spare_folders.note_creation(job.paths.home, time.perf_counter() - began)
            job.folder_made = True
        finally:
            job.folder_tried.set()
        job.gate.make()
    # One listing, checked here with the cloud upload's rules and copied as is below.
    files = check_snapshot(spec.source_directory, upload=False, entry_script=spec.entry_script)
    _plan(job, spec, ctx, input_mounts, now, files)
    paths = job.paths
    paths.create_rank_folders(job.early_log)
    job.supervisor.watch_exits()
    if job.spare:  # (its reserve is there, and files made ahead for its ranks, checked before they run)
        spare_folders.check_rank_files(paths, _world_size(job.record))
    else:
        reserve(paths)
    copy_snapshot(spec.source_directory, paths.snapshot, files)
    _make_working_folders(paths.snapshot)
    if job.view:
        process = lambda: job.supervisor.process.pid if job.supervisor.process else None  # noqa: E731
        job.granter = store_view.Granter(paths.root, paths.home, process)


def _store_view_applies(store_home: str) -> bool:
    """Where the machine allows it, the job sees the store read-only but for its own run and outputs, and its
    driver makes the runs and models it creates (store_view); a job started from inside one shares that view."""
    return not store_view.protected(store_home) and store_view.available()


def _store_view_mounts(job: LocalJob, output_paths) -> tuple:
    paths = job.paths
    return store_view.mounts(paths.home, paths.root, output_paths.values(), bool(job.mlflow_run))


def _initial_record(spec, experiment, run_id, now, input_paths, output_paths, launcher) -> dict:
    workspace = getattr(experiment, "workspace", None)
    dist = spec.distribution
    return {
        "runId": run_id, "experimentName": spec.experiment_name or experiment.name, "displayName": spec.display_name,
        "status": "Preparing", "createdTime": now, "startTime": None, "endTime": None, "target": "local",
        "workspace": {"name": getattr(workspace, "name", "local"),
                      "subscription_id": getattr(workspace, "subscription_id", "local"),
                      "resource_group": getattr(workspace, "resource_group", "local"),
                      "is_local": bool(getattr(workspace, "is_local", True))},
        "properties": {"azureml.runsource": "experiment", "_azureml.ComputeTargetType": "local",
                       "acpt.requestedTarget": str(spec.compute.target), "acpt.launcher": launcher.description},
        "tags": dict(spec.tags), "submittedBy": user(),
        "supervisor": {"pid": os.getpid(), "startTicks": procs.own_start_time()},
        "inputs": {item.reference_name: input_paths[item.name] for item in spec.inputs},
        "inputDatasets": [{"dataset": {"name": item.dataset_name or item.reference_name, "uri": item.uri},
                           "consumptionDetails": {"type": "RunInput", "inputName": item.reference_name,
                                                  "mechanism": item.mode.capitalize()},
                           "localPath": input_paths[item.name]} for item in spec.inputs],
        "outputDatasets": data.output_records(spec, output_paths, run_id),
        "runDefinition": {
            "script": spec.entry_script, "command": spec.command,
            "arguments": [_v1_argument(t, spec) for t in spec.arguments],
            "target": "local", "framework": "PyTorch" if dist.kind == "pytorch" else "Python",
            "communicator": {"none": "None", "mpi": "Mpi"}.get(dist.kind, (dist.backend or "").capitalize()),
            "nodeCount": dist.node_count, "mpi": {"processCountPerNode": dist.process_count_per_node},
            "pyTorch": {"communicationBackend": dist.backend, "processCount": dist.world_size},
            "distribution": dist.spelling, "environmentVariables": dict(spec.environment_variables),
            "environment": {"name": spec.environment.name, "version": spec.environment.version,
                            "localInterpreter": sys.executable},
            "maxRunDurationSeconds": spec.max_run_duration_seconds, "sourceDirectory": spec.source_directory},
    }


def _v1_argument(token, spec) -> str:
    if isinstance(token, Literal):
        return token.value
    if isinstance(token, (InputRef, OutputRef)):
        items = spec.inputs if isinstance(token, InputRef) else spec.outputs
        ref = next((i.reference_name for i in items if i.name == token.name), token.name)
        return f"$AZUREML_DATAREFERENCE_{ref}"
    return str(token)


def _make_working_folders(workdir: str) -> None:
    """v1 jobs found ./outputs and ./logs in their working directory; scripts write there without creating them."""
    for name in ("outputs", "logs"):
        path = os.path.join(workdir, name)
        if not os.path.lexists(path):  # a snapshot that ships its own (even a file or link) keeps it
            os.mkdir(path)


def _free_port() -> int:
    # Each job gets its own MASTER_PORT: two local jobs at once must not collide (runtime.md §3).
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _collect(paths: RunPaths) -> list[str]:
    """./outputs and ./logs of the working directory become the run's outputs/ and logs/ (v1: uploaded). Never
    through a link the job left in its run folder (to another run's folder): what lies behind one stays."""
    left = []
    for name in ("outputs", "logs"):
        source, target = os.path.join(paths.snapshot, name), os.path.join(paths.files, name)
        try:
            kind = os.lstat(source).st_mode  # (one call for "a folder, not a link to one": this runs as the run ends)
        except FileNotFoundError:
            continue
        if not stat.S_ISDIR(kind) or _empty(source):
            continue  # (an empty folder holds nothing to collect: no rename, ~0.1 ms each on a journaling disk)
        if not (within(paths.root, source) and within(paths.root, target)):
            left.append(f"./{name} was not collected: a link in the run folder leads out of it.")
            continue
        if not os.path.exists(target):
            os.replace(source, target)  # same file system: instant whatever the size
            continue
        for root, _, names in os.walk(source):  # merge with files uploaded during the run
            dest = os.path.join(target, os.path.relpath(root, source))
            if not within(paths.root, dest):
                left.append(f"./{name}/{os.path.relpath(root, source)} was not collected: its folder in files/ is "
                            "a link that leads out of the run folder.")
                continue
            os.makedirs(dest, exist_ok=True)
            for file_name in names:
                os.replace(os.path.join(root, file_name), os.path.join(dest, file_name))
        shutil.rmtree(source, ignore_errors=True)
    return left


def _empty(folder: str) -> bool:
    with os.scandir(folder) as entries:
        return next(entries, None) is None


_LAUNCH_FILES = frozenset((RANK_SCRIPT_NAME, RANK_PLAN_NAME, RANK_BODY_NAME, GATE_NAME, READY_NAME))


def _remove_launch_files(paths: RunPaths, known=None) -> None:
    """The ranks have started and ended: the launch's files go (their expanded arguments too). Those ``known`` to
    have been written, else the names a launch may write that the run folder holds: a launch writes two or three of
    the five, and each missing one cost a failed system call and an exception while the run ends."""
    if known is None:
        try:
            known = [os.path.join(paths.root, name) for name in _LAUNCH_FILES.intersection(os.listdir(paths.root))]
        except FileNotFoundError:
            return
    for path in known:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)


def _verdict(outcome, record: dict, paths: RunPaths) -> tuple[str, dict | None]:
    """Final status and v1-style error for an Outcome."""
    if outcome.reason == "completed":
        return "Completed", None
    if outcome.reason in ("canceled", "interrupted"):
        return "Canceled", None
    if outcome.reason == "timeout":
        limit = record["runDefinition"]["maxRunDurationSeconds"]
        return "Canceled", {"code": "UserError", "innerError": {"code": "MaxRunDurationExceeded"},
                            "message": f"The run exceeded max_run_duration_seconds={limit} and was canceled: every "
                                       "rank was ended. Raise the limit or make the script finish sooner."}
    failure = outcome.first_failure
    root = paths.files
    world = _world_size(record)
    if failure is None:
        if outcome.reason == "driver ended":
            return "Failed", {"code": "SystemError", "message": outcome.note, "logFile": LAUNCHER_LOG,
                              "logTail": tail(os.path.join(root, LAUNCHER_LOG))}
        reported = len({e.rank for e in outcome.exits})
        log_file = os.path.join(root, LAUNCHER_LOG)
        return "Failed", {"code": "UserError", "exitCode": outcome.launcher_code, "logFile": LAUNCHER_LOG,
                          "message": f"The MPI launcher exited with code {outcome.launcher_code} after only "
                                     f"{reported} of {world} rank(s) reported an exit code (a launcher that starts "
                                     f"no rank is a failure); see {LAUNCHER_LOG}.{disk_full_note(paths.root)}",
                          "logTail": tail(log_file)}
    per_node = (record.get("runDefinition") or {}).get("mpi", {}).get("processCountPerNode") or 1
    node_rank, local_rank = divmod(failure.rank, per_node)
    log_rel = f"user_logs/{log_name(failure.rank, world)}"
    others = world - 1
    return "Failed", {
        "code": "UserError", "rank": failure.rank, "exitCode": failure.code, "logFile": log_rel,
        "message": (f"Rank {failure.rank} (node {node_rank}, local rank {local_rank}) failed "
                    f"first with exit code {failure.code}{_signal_note(failure.code)}"
                    + (f"; the other {others} rank(s) were ended" if others else "") + f". Log: {log_rel}"
                    + disk_full_note(paths.root)),
        # Nothing in the rank's log (it never started): the launcher's own output says why.
        "logTail": tail(os.path.join(root, log_rel)) or tail(os.path.join(root, LAUNCHER_LOG))}


def _signal_note(code: int) -> str:
    if code == EXIT_NO_WORKDIR:
        return " (the rank could not enter the run's snapshot folder)"
    if code == EXIT_NO_DRIVER:
        return " (its driver ended before the run was prepared, so its command was not started)"
    if code == EXIT_UNTRACKED:
        return " (the rank was never moved into the job's cgroup, so its command was not started)"
    if code == 127:
        return " (command not found)"
    if code > 128:
        try:
            return f" (killed by {signal.Signals(code - 128).name})"
        except ValueError:
            pass
    return ""


def tail(path: str, lines: int = TAIL_LINES) -> list[str]:
    try:
        with open(path, "rb") as handle:
            handle.seek(0, os.SEEK_END)
            handle.seek(max(0, handle.tell() - 16384))
            text = handle.read().decode("utf-8", errors="replace")
    except OSError:
        return []
    return text.splitlines()[-lines:]


def _export_mlflow(paths: RunPaths, record: dict) -> list[str]:
    """A job that used MLflow: its v1 records into its MLflow run (resumable: a second finish adds nothing).
    The others are copied when MLflow is asked for (mlflow_sqlite.sync), off this path."""
    if not (record.get("mlflow") or {}).get("runId"):
        return []
    return [f"Could not copy {problem} into the MLflow store" for problem in mlflow_sqlite.export_run(paths, record)]
