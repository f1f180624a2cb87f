"""A run reopened after its driver died: Running while its ranks live, then ended and recorded with its outputs."""

from __future__ import annotations

import fcntl
import os
import time

from acpt_estimator.run_handle import TERMINAL_STATUSES

from . import atomic, procs
from .job import _world_size, finalize
from .store import RunPaths, read_json, write_final_json
from .supervisor import Outcome, read_exits

LEFTOVER_GRACE = 1.0


def settle(paths: RunPaths, record: dict, reason: str | None = None) -> dict:
    """The truthful record of a run whose supervising driver is gone; final once no rank is left.

    Local runs end with their driver (its guardian kills the job cgroups), so usually nothing is left to wait
    for: whoever looks at the run next finishes its record, collects ./outputs and closes its MLflow run,
    exactly once (a lock file in the run folder). ``reason="canceled"`` ends what is left, recorded Canceled.
    """
    leftovers = procs.tracker_from_record(record["runId"], record.get("tracking"))
    exits = read_exits(paths.status)
    ranks_left = len({e.rank for e in exits}) < _world_size(record)
    if reason is None and ranks_left and not any(e.code for e in exits) and leftovers.pids():
        return dict(record, status="Running")  # ranks still run (no parent-death signal on this system)
    try:
        # O_NOFOLLOW: a link the job left there must not make this create a file in another run's folder.
        lock = open(os.open(os.path.join(paths.root, ".finalize.lock"), os.O_WRONLY | os.O_CREAT | os.O_APPEND
                            | os.O_NOFOLLOW, 0o644), "a")
    except OSError:
        return dict(record, status="Finalizing")
    with lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return dict(record, status="Finalizing")  # another process is finishing it right now
        try:
            record = read_json(paths.run_json)
        except (OSError, ValueError):
            pass
        if record.get("status") in TERMINAL_STATUSES:
            return record
        leftovers.end(LEFTOVER_GRACE)
        outcome = _outcome(record, read_exits(paths.status), reason)
        record = dict(record, **finalize(paths, record, outcome))
        try:
            write_final_json(paths, record)
        except OSError:
            pass  # reported as final all the same; the next reader tries again
        # The dead driver's temporaries (a final record it had staged while the launcher ended: LocalJob._ranks_done).
        atomic.clean_stale(paths.root)
        return record


def _outcome(record: dict, exits: list, reason: str | None) -> Outcome:
    failures = [e for e in exits if e.code]
    world = _world_size(record)
    reported = len({e.rank for e in exits})
    owner = (record.get("supervisor") or {}).get("pid")
    note = ""
    if reason is None:
        if failures:
            reason = "failed"
        elif reported >= world:
            reason = "completed"
        else:
            reason = "driver ended"
            note = (f"The driver process (pid {owner}) that supervised this run ended before the run finished "
                    f"({reported} of {world} rank(s) had reported an exit code). Local runs end with their driver: "
                    "its ranks were stopped with it, and the outputs written so far were collected. Keep the "
                    "driver running (run.wait_for_completion()) until the run ends.")
    return Outcome(reason=reason, launcher_code=None, exits=tuple(exits),
                   first_failure=failures[0] if failures else None, started=record.get("startTime") or 0.0,
                   ended=time.time(), note=note)
