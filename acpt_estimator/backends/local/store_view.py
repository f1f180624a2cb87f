"""A local job's view of the store: read-only but for its own run and outputs; new runs and models through its driver.

Where read-only bind mounts are possible (inputs.bind_mounts_available, util-linux nsenter and mount), the launcher
binds the store read-only in the job's own mount namespace, after binding back writable what the job may change: its own
run folder and its declared mount outputs. A job that uses MLflow needs the store's top folder writable (SQLite
makes its journal next to mlflow.db), so there each top-level entry but MLflow's own is bound read-only instead.

Records a job legitimately creates elsewhere (a child run, a nested job's run, a registered model) are made by the
driver that supervises it: the job writes a request into its own run folder and names it on a FIFO; the driver
checks it, creates the record (a new run folder it then binds writable into the job's namespace with nsenter, or
the model version) and answers in the same folder. Jobs started from inside a job share that namespace and driver.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import tempfile
import threading

from ...exceptions import ExperimentExecutionException, UserErrorException
from . import fifo_service, tools
from .inputs import Mount, bind_mounts_available
from .store_grants import GRANTS_VAR, VIEW_VAR, protected  # noqa: F401 - job.py asks this module

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
    return {GRANTS_VAR: os.path.join(run_root, _GRANTS, _REQUESTS), VIEW_VAR: store_home}


_GRANTS, _REQUESTS = ".grants", "requests"


class Granter:
    """The driver's side: serves one job's requests for new runs and models until ``stop`` (on the driver's one
    fifo_service thread, which serves every job's requests in turn)."""

    def __init__(self, run_root: str, store_home: str, namespace_pid):
        self.folder = os.path.join(run_root, _GRANTS)
        self.fifo = os.path.join(self.folder, _REQUESTS)
        self.store_home = store_home
        self._pid = namespace_pid  # callable: a process in the job's mount namespace (mpiexec), or None
        os.mkdir(self.folder, 0o700)
        os.mkfifo(self.fifo, 0o600)
        self._dir = os.open(self.folder, os.O_RDONLY | os.O_DIRECTORY)
        # A reader always: a writer never blocks or gets EOF. Non-blocking: the service reads what is there.
        self._fd = os.open(self.fifo, os.O_RDWR | os.O_NONBLOCK)
        self._pending = b""
        self._lock = threading.Lock()  # the service answering, or stop()
        fifo_service.register(self._fd, self._serve)

    def env(self) -> dict:
        return grant_env(os.path.dirname(self.folder), self.store_home)

    def stop(self) -> None:
        """When the job's processes have ended: what it asked before is answered, a later request finds no reader
        and says the driver ended."""
        with self._lock:
            if self._fd is not None:
                fifo_service.unregister(self._fd)
                self._read()
                os.close(self._fd)
                self._fd = None
                with contextlib.suppress(OSError):  # through the folder's descriptor: .grants may be a link now
                    os.unlink(_REQUESTS, dir_fd=self._dir)
                os.close(self._dir)
        with contextlib.suppress(OSError):
            os.rmdir(self.folder)  # the usual case, empty (rmtree costs ~0.2 ms more: launch overhead)
        if os.path.lexists(self.folder):  # requests the job left behind (a link: rmtree refuses it)
            shutil.rmtree(self.folder, ignore_errors=True)

    def _serve(self) -> None:
        with self._lock:
            if self._fd is not None:
                self._read()

    def _read(self) -> None:
        """Answer every request named in the FIFO so far."""
        while True:
            try:
                chunk = os.read(self._fd, 4096)
            except BlockingIOError:
                return
            if not chunk:
                return
            *lines, self._pending = (self._pending + chunk).split(b"\n")
            for line in lines:
                nonce = line.decode("ascii", "replace").strip()
                if nonce.isalnum():
                    with contextlib.suppress(OSError):  # the job removed its request, or the job has ended
                        self._answer(nonce)

    def _answer(self, nonce: str) -> None:
        # Through the folder's descriptor: the job may swap .grants for a link to another run's folder, and the
        # driver must not write there.
        try:
            with os.fdopen(os.open(nonce + ".request", os.O_RDONLY | os.O_NOFOLLOW, dir_fd=self._dir), "rb") as handle:
                reply = {"result": self._do(json.loads(handle.read()))}
        except Exception as err:  # noqa: BLE001 - the job's request failed: the job raises it
            reply = {"error": getattr(err, "message", None) or str(err), "type": type(err).__name__}
        temporary = f".{nonce}.reply.{os.getpid()}.tmp"
        with os.fdopen(os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600,
                               dir_fd=self._dir), "w", encoding="utf-8") as handle:
            handle.write(json.dumps(reply, default=str))
        os.rename(temporary, nonce + ".reply", src_dir_fd=self._dir, dst_dir_fd=self._dir)  # the reply appears whole

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
