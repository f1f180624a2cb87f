"""Interactive local runs: ``experiment.start_logging()`` and ``run.child_run()`` in the local store, no job.

The driver process logs to them and ends them with ``complete()``/``fail()``/``cancel()``; a run whose process
ended without doing so reads as Failed (the supervisor check in LocalRun), never Running forever.
"""

from __future__ import annotations

import os
import time

from ...names import new_run_id
from . import mlflow_sqlite, procs
from .store import RunPaths, home, read_json, write_json


def start(experiment, run_id: str | None = None, parent_id: str | None = None, display_name: str | None = None,
          store_home: str | None = None):
    """A new Running interactive run of ``experiment`` in the local store; its folder (``run.start_interactive``
    makes the LocalRun handle)."""
    paths = RunPaths(store_home or home(), run_id or new_run_id(experiment.name))
    paths.create()
    now = time.time()
    workspace = experiment.workspace
    write_json(paths.run_json, {
        "runId": paths.run_id, "experimentName": experiment.name, "displayName": display_name,
        "status": "Running", "createdTime": now, "startTime": now, "endTime": None, "target": "local",
        "interactive": True, "parentRunId": parent_id, "runType": "azureml.interactive" if parent_id is None else "run",
        "workspace": {"name": getattr(workspace, "name", "local"),
                      "subscription_id": getattr(workspace, "subscription_id", None),
                      "resource_group": getattr(workspace, "resource_group", None)},
        "supervisor": {"pid": os.getpid(), "startTicks": procs.own_start_time()},
        "runDefinition": {}, "tags": {}, "properties": {}, "mlflow": {}})
    return paths


def finish(paths: RunPaths, status: str, error: dict | None = None) -> None:
    """End an interactive run (v1: complete(), fail(), cancel()); its records reach MLflow as a job's do: copied
    when MLflow is asked for (mlflow_sqlite.sync), or now when the MLflow store is already in use in this process."""
    record = read_json(paths.run_json)
    record.update(status=status, endTime=time.time())
    if error is not None:
        record["error"] = error
    if mlflow_sqlite.loaded(paths.home):  # MLflow already loaded here: no extra cost
        try:
            mlflow_sqlite.export_run(paths, record)
        finally:  # the status after the copy, as for jobs
            mlflow_sqlite.finish_run(paths, record, status, record["endTime"])
    write_json(paths.run_json, record)
