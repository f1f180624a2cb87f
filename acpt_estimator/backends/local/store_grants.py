"""The job's side of store_view: inside a job whose store is read-only, its driver makes new runs and models."""

from __future__ import annotations

import contextlib
import json
import os
import time
import uuid

from ...exceptions import ExperimentExecutionException, ModelPathNotFoundException, UserErrorException
from . import atomic

GRANTS_VAR = "ACPT_ESTIMATOR_STORE_GRANTS"  # the job's run folder, where it leaves requests for its driver
GRANTER_VAR = "ACPT_ESTIMATOR_STORE_GRANTER"  # the pid of the driver that answers them
VIEW_VAR = "ACPT_ESTIMATOR_STORE_VIEW"  # the store that is read-only in this job's view
REQUEST_PREFIX, REQUEST, REPLY = ".grant-", ".request", ".reply"  # .grant-<nonce>.request, .grant-<nonce>.reply
_REPLY_SECONDS = 60
_ERRORS = {cls.__name__: cls for cls in (UserErrorException, ModelPathNotFoundException,
                                          ExperimentExecutionException)}


def protected(store_home: str) -> bool:
    """Whether this process runs in a job whose view of ``store_home`` is read-only (its driver makes records)."""
    view = os.environ.get(VIEW_VAR)
    return bool(view) and bool(os.environ.get(GRANTS_VAR)) and view == os.path.abspath(store_home)


def refuse(store_home: str, what: str, path: str | None = None) -> None:
    """Inside a job with a read-only view of ``store_home``: a write its view would refuse (anywhere, or at ``path``
    when that is not one of the job's own writable folders) is refused here, with the reason and the fix."""
    if not protected(store_home) or (path is not None and _writable(path)):
        return
    raise UserErrorException(
        f"A local job cannot {what}: the local store {store_home} is read-only to its jobs, except their own run "
        "folder and their declared outputs (the child runs, jobs and models a job makes are made by its driver). "
        "Do it in the driver script, or write the files to an output of the job "
        "(OutputFileDatasetConfig(destination=(datastore, 'path')).as_mount()).")


def _writable(path: str) -> bool:
    while not os.path.exists(path) and os.path.dirname(path) != path:
        path = os.path.dirname(path)
    return os.access(path, os.W_OK)  # False on a read-only bind (EROFS)


def request(op: str, **args):
    """The job's side: ask the driver for a new record and wait for its answer (raised when it refused)."""
    folder = os.environ[GRANTS_VAR]
    nonce = uuid.uuid4().hex
    request_file, reply_file = (os.path.join(folder, REQUEST_PREFIX + nonce + s) for s in (REQUEST, REPLY))
    if not _supervised(folder):
        _ended(op)
    atomic.write_text(request_file, json.dumps({"op": op, "args": args}))  # renamed in whole: the driver's cue
    deadline, pause = time.monotonic() + _REPLY_SECONDS, 0.002
    try:
        while not os.path.exists(reply_file):
            if time.monotonic() > deadline:
                raise ExperimentExecutionException(f"The driver of this local job did not answer its {op} request "
                                                   f"within {_REPLY_SECONDS} s.")
            if pause >= 0.05 and not _supervised(folder):
                _ended(op)
            time.sleep(pause)
            pause = min(pause * 2, 0.05)
        with open(reply_file, encoding="utf-8") as handle:
            reply = json.load(handle)
    finally:
        for path in (request_file, reply_file):
            with contextlib.suppress(FileNotFoundError):
                os.unlink(path)
    if "error" in reply:
        raise _ERRORS.get(reply.get("type"), UserErrorException)(reply["error"])
    return reply["result"]


def _supervised(run_folder: str) -> bool:
    """Whether the driver that answers this job's requests is alive and still supervising the job (its run not
    final)."""
    try:
        os.kill(int(os.environ.get(GRANTER_VAR) or 0), 0)
    except (ValueError, ProcessLookupError):
        return False
    except PermissionError:
        pass  # it runs, as another user
    from ...run_handle import TERMINAL_STATUSES

    try:
        with open(os.path.join(run_folder, "run.json"), encoding="utf-8") as handle:
            return json.load(handle).get("status") not in TERMINAL_STATUSES
    except (OSError, ValueError):
        return True  # no record yet (the driver writes it while the job starts)


def _ended(op: str):
    raise ExperimentExecutionException(
        "The driver that supervises this local job has ended, so it cannot make the new "
        f"{'run' if op == 'run' else 'model'} this job asked for.")
