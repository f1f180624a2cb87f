"""A local job's view of the store: read-only but for its own run and outputs; new runs and models through its driver.

Where read-only bind mounts are possible (inputs.bind_mounts_available, util-linux nsenter and mount), the launcher
binds the store read-only in the job's own mount namespace, after binding back writable what the job may change: its own
run folder and its declared mount outputs. A job that uses MLflow needs the store's top folder writable (SQLite
makes its journal next to mlflow.db), so there each top-level entry but MLflow's own is bound read-only instead.

Records a job legitimately creates elsewhere (a child run, a nested job's run, a registered model) are made by the
driver that supervises it: the job renames a request into its own run folder, which the driver watches (inotify);
the driver checks it, creates the record (a new run folder it then binds writable into the job's namespace with nsenter, or
the model version) and answers in the same folder. Jobs started from inside a job share that namespace and driver.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import tempfile
import threading

from ...exceptions import ExperimentExecutionException, UserErrorException
from . import driver_events, tools
from .inputs import Mount, bind_mounts_available
from .store_grants import (GRANTER_VAR, GRANTS_VAR, REPLY as _REPLY, REQUEST as _REQUEST,  # noqa: F401
                           REQUEST_PREFIX as _PREFIX, VIEW_VAR, protected)

# Made before the first MLflow job's view (whose top folder stays writable), so a job cannot create a registry
# that did not exist yet.
_STANDARD = ("runs", "models", "datasets", "environments", "datastores", "experiments", "secrets", "published",
             "pipeline_endpoints", "schedules", "pipeline_reuse")
_MLFLOW_OWN = ("mlflow.db", "mlflow.db-journal", "mlflow.db-wal", "mlflow.db-shm", "mlartifacts")


def available() -> bool:
    """Whether this machine can give jobs a read-only store (and grant new runs into their view)."""
    # The driver grants new run folders into a running job's view with nsenter and mount (Granter._new_run).
    return bind_mounts_available() and tools.which("nsenter") is not None and tools.which("mount") is not None


def mounts(store_home: str, own_root: str, output_paths, uses_mlflow: bool) -> tuple:
    """The binds of the view, in order: what stays writable first, then the read-only store over it (recursive,
    so those binds show through; a read-only remount changes only the top mount)."""
    inside = store_home.rstrip(os.sep) + os.sep
    writable = [own_root] + sorted({p for p in output_paths if p.startswith(inside)
                                    and not p.startswith(own_root + os.sep)})
    if uses_mlflow:
        _make_standard_folders(store_home)
        # Names starting with '.' are writers' temporaries, never records (and may be gone by the time of the bind).
        read_only = [os.path.join(store_home, n) for n in sorted(os.listdir(store_home))
                     if n not in _MLFLOW_OWN and not n.startswith(".")]
    else:
        read_only = [store_home]
    return tuple([Mount(p, p, writable=True) for p in writable] + [Mount(p, p, recursive=True) for p in read_only])


_made: set = set()


def _make_standard_folders(store_home: str) -> None:
    if store_home in _made:
        return
    for name in _STANDARD:
        os.makedirs(os.path.join(store_home, name), mode=0o700 if name == "secrets" else 0o777, exist_ok=True)
    registry = os.path.join(store_home, "datastores.json")
    if not os.path.exists(registry):  # an empty registry, published whole (link fails if a writer was first)
        handle, temporary = tempfile.mkstemp(dir=store_home, prefix=f".datastores.json.{os.getpid()}.",
                                             suffix=".tmp")
        with os.fdopen(handle, "w") as out:
            out.write("{}")
        with contextlib.suppress(FileExistsError):
            os.link(temporary, registry)
        os.unlink(temporary)
    _made.add(store_home)


def grant_env(run_root: str, store_home: str) -> dict:
    """What a job whose driver serves its requests (Granter) finds in its environment: known before the Granter runs."""
    return {GRANTS_VAR: run_root, GRANTER_VAR: str(os.getpid()), VIEW_VAR: store_home}


class Granter:
    """The driver's side: serves one job's requests for new runs and models until ``stop``.

    The job renames a request file (``.grant-<nonce>.request``) into its run folder; the driver, watching the folder
    (driver_events: one thread serves every job of the driver), answers with ``.grant-<nonce>.reply`` beside it."""

    def __init__(self, run_root: str, store_home: str, namespace_pid):
        self.folder, self.store_home = run_root, store_home
        self._pid = namespace_pid  # callable: a process in the job's mount namespace (mpiexec), or None
        # Replies go through this descriptor: the run folder itself cannot be swapped by the job (runs/ is read-only
        # in its view), whatever it leaves inside.
        self._dir = os.open(run_root, os.O_RDONLY | os.O_DIRECTORY)
        self._lock = threading.Lock()  # the service answering, or stop()
        self._open = True
        try:
            self._watch = driver_events.watch_moves(run_root, self._moved)
        except BaseException:
            os.close(self._dir)
            raise

    def env(self) -> dict:
        return grant_env(self.folder, self.store_home)

    def stop(self) -> None:
        """When the job's processes have ended: no more answers, and what the job left of its requests goes (again
        where called again: LocalJob stops it as its ranks end, and where processes were left over, after they have
        been ended). Before the run's record is final: nothing in its folder changes after, when the caller may be
        removing the store."""
        with self._lock:
            self._unwatch()
            if self._dir is None:
                return
            with contextlib.suppress(OSError):
                for name in os.listdir(self._dir):
                    if name.startswith((_PREFIX, "." + _PREFIX)):
                        with contextlib.suppress(OSError):
                            os.unlink(name, dir_fd=self._dir)

    def close(self) -> None:
        """Once the run's record is final (LocalJob's after_done): the watch (where stop() was not called) and the
        run folder's descriptor let go; nothing in the folder changes."""
        with self._lock:
            self._unwatch()
            if self._dir is not None:
                os.close(self._dir)
                self._dir = None

    def _unwatch(self) -> None:
        """(``_lock`` held.) No more answers: the watch of the run folder goes, once."""
        if self._open:
            self._open = False
            driver_events.unwatch(self._watch)

    def _moved(self, name: str) -> None:
        """A file was renamed into the run folder: a request, if it is named like one."""
        if not (name.startswith(_PREFIX) and name.endswith(_REQUEST)):
            return
        nonce = name[len(_PREFIX):-len(_REQUEST)]
        with self._lock:
            if self._open and nonce.isalnum():
                with contextlib.suppress(OSError):  # the job removed its request, or the job has ended
                    self._answer(nonce)

    def _answer(self, nonce: str) -> None:
        # Through the run folder's descriptor, never following a link the job left under a request's or reply's name
        # (to another run's files, say).
        try:
            with os.fdopen(os.open(_PREFIX + nonce + _REQUEST, os.O_RDONLY | os.O_NOFOLLOW, dir_fd=self._dir),
                           "rb") as handle:
                reply = {"result": self._do(json.loads(handle.read()))}
        except Exception as err:  # noqa: BLE001 - the job's request failed: the job raises it
            reply = {"error": getattr(err, "message", None) or str(err), "type": type(err).__name__}
        temporary = f".{_PREFIX}{nonce}.reply.{os.getpid()}.tmp"
        with os.fdopen(os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600,
                               dir_fd=self._dir), "w", encoding="utf-8") as handle:
            handle.write(json.dumps(reply, default=str))
        # The reply appears whole (a rename never follows a link the job may have put under that name).
        os.rename(temporary, _PREFIX + nonce + _REPLY, src_dir_fd=self._dir, dst_dir_fd=self._dir)

    def _do(self, request: dict):
        op = request.get("op")
        if op == "run":
            return self._new_run(str(request["args"].get("run_id")))
        if op == "model":
            from attrs import asdict

            from .models import register

            fields = {k: request["args"].get(k) for k in _MODEL_FIELDS}
            fields["file_names"] = list(fields["file_names"] or [])
            return asdict(register(store_home=self.store_home, **fields))
        raise UserErrorException(f"Unknown store request {op!r}.")

    def _new_run(self, run_id: str) -> dict:
        """A new run's folder (never an existing one: mkdir fails on it), writable in the job's view from now on."""
        from .store import run_paths

        paths = run_paths(run_id, self.store_home)
        paths.create()
        pid = self._pid()
        if pid is None:
            raise ExperimentExecutionException("The job's processes have ended; no run can be made for it.")
        script = 'mount --bind "$1" "$1" && mount -o remount,bind,rw "$1"'
        done = subprocess.run(["nsenter", f"--mount=/proc/{pid}/ns/mnt", "--", "/bin/sh", "-c", script, "sh",
                               paths.root], stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=30)
        if done.returncode:
            raise ExperimentExecutionException(f"Could not make run folder {paths.root} writable for the job: "
                                               f"{done.stderr.strip()}")
        return {"root": paths.root}


_MODEL_FIELDS = ("run_id", "experiment_name", "files_dir", "file_names", "model_name", "model_path", "tags",
                 "properties", "description", "model_framework", "model_framework_version", "datasets")
