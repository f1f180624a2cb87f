"""Interactive local runs: ``experiment.start_logging()`` and ``run.child_run()`` in the local store, no job.

The driver process logs to them and ends them with ``complete()``/``fail()``/``cancel()``; a run whose process
ended without doing so reads as Failed (the supervisor check in LocalRun), never Running forever.
"""

from __future__ import annotations

import os
import time

from ...names import new_run_id
from . import mlflow_store, procs
from .store import RunPaths, home, read_json, write_json


def start(experiment, run_id: str | None = None, parent_id: str | None = None, display_name: str | None = None,
          store_home: str | None = None):
    """A new Running interactive run of ``experiment`` in the local store."""
    from .run import LocalRun

    paths = RunPaths(store_home or home(), run_id or new_run_id(experiment.name))
    paths.create()
    now = time.time()
    mlflow_exp = mlflow_store.create_run(paths.home, experiment.name, paths.run_id, start_ms=int(now * 1000),
                                         artifact_dir=paths.files)
    workspace = experiment.workspace
    write_json(paths.run_json, {
        "runId": paths.run_id, "experimentName": experiment.name, "displayName": display_name,
        "status": "Running", "createdTime": now, "startTime": now, "endTime": None, "target": "local",
        "interactive": True, "parentRunId": parent_id, "runType": "azureml.interactive" if parent_id is None else "run",
        "workspace": {"name": getattr(workspace, "name", "local"),
                      "subscription_id": getattr(workspace, "subscription_id", None),
                      "resource_group": getattr(workspace, "resource_group", None)},
        "supervisor": {"pid": os.getpid(), "startTicks": procs.start_time(os.getpid())},
        "runDefinition": {}, "tags": {}, "properties": {}, "mlflow": {"experimentId": mlflow_exp}})
    return LocalRun(paths, experiment=experiment)


def finish(paths: RunPaths, status: str, error: dict | None = None) -> None:
    """End an interactive run (v1: complete(), fail(), cancel()); its records go to its MLflow run, as a job's do."""
    from .job import _export_mlflow, _finish_mlflow

    record = read_json(paths.run_json)
    record.update(status=status, endTime=time.time())
    if error is not None:
        record["error"] = error
    try:
        _export_mlflow(paths, record, record["mlflow"]["experimentId"], status, record["endTime"])
    finally:
        _finish_mlflow(paths, record, record["mlflow"]["experimentId"], status, record["endTime"])
    write_json(paths.run_json, record)
