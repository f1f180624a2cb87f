"""The local MLflow store: MLflow's SQLite tracking store (``<home>/mlflow.db``), written through MLflow's own store API.

``import mlflow`` and creating the database cost seconds, so nothing here runs on a job's launch unless the job
uses MLflow (its sources mention it: then its MLflow run must exist before it starts, as on v2, where
MLFLOW_RUN_ID names the job's run). Runs that did not use MLflow are copied in later, when MLflow is asked for
(``ws.get_mlflow_tracking_uri()``): ``sync``. MLflow picks its own run ids; the v1 run id is the run's name and
its ``azureml.runid`` tag, and run.json keeps the MLflow run id.
"""

from __future__ import annotations

import logging
import os
import re

from .store import file_uri, user

DB_NAME = "mlflow.db"
ARTIFACTS = "mlartifacts"
RUN_ID_TAG = "azureml.runid"  # the v1 run an MLflow run mirrors (runs started with mlflow.start_run have none)
_STATUS = {"Running": "RUNNING", "Completed": "FINISHED", "Failed": "FAILED", "Canceled": "KILLED"}
V1_STATUS = {"RUNNING": "Running", "SCHEDULED": "Queued", "FINISHED": "Completed", "FAILED": "Failed",
             "KILLED": "Canceled"}
_MENTION = re.compile(rb"\bmlflow\b")
_SCAN_LIMIT = 4 << 20  # bytes of sources read to decide; a larger snapshot is assumed to use MLflow
_stores: dict = {}


def tracking_uri(store_home: str) -> str:
    """What MLflow 3.x reads without extra settings: its SQLite store in the local store's folder."""
    return "sqlite:///" + os.path.join(os.path.abspath(store_home), DB_NAME)


def exists(store_home: str) -> bool:
    return os.path.isfile(os.path.join(store_home, DB_NAME))


def job_uses_mlflow(snapshot_dir: str, files, command: str = "") -> bool:
    """Whether a job's sources (or its command) mention MLflow: only those get their MLflow run before launch."""
    if _MENTION.search(command.encode()):
        return True
    budget = _SCAN_LIMIT
    for rel in files:
        if not rel.endswith((".py", ".sh", ".ipynb", ".yml", ".yaml", ".txt", ".cfg", ".toml", ".json")):
            continue
        try:
            with open(os.path.join(snapshot_dir, rel), "rb") as handle:
                # No more than the file holds: read(n) sets n bytes aside first (megabytes, for one small script).
                text = handle.read(min(budget, os.fstat(handle.fileno()).st_size) + 1)
        except OSError:
            continue
        if _MENTION.search(text):
            return True
        budget -= len(text)
        if budget < 0:
            return True
    return False


def store(store_home: str):
    """MLflow's SqlAlchemyStore for the local store (the database is created, by MLflow, on first use)."""
    key = os.path.abspath(store_home)
    if key not in _stores:
        from mlflow.store.tracking.sqlalchemy_store import SqlAlchemyStore

        os.makedirs(key, exist_ok=True)
        quiet = [logging.getLogger(n) for n in ("mlflow.store.db.utils", "alembic.runtime.migration")]
        levels = [logger.level for logger in quiet]
        for logger in quiet:  # "Creating initial MLflow database tables..." is not the user's business
            logger.setLevel(logging.WARNING)
        try:
            _stores[key] = SqlAlchemyStore(tracking_uri(key), file_uri(os.path.join(key, ARTIFACTS)))
        finally:
            for logger, level in zip(quiet, levels):
                logger.setLevel(level)
    return _stores[key]


def experiment_id(mlstore, name: str) -> str:
    """The MLflow experiment of a v1 experiment name, created when new (another process may win the race)."""
    from mlflow.exceptions import MlflowException

    found = mlstore.get_experiment_by_name(name)
    if found is not None:
        return found.experiment_id
    try:
        return mlstore.create_experiment(name)
    except MlflowException:
        return mlstore.get_experiment_by_name(name).experiment_id


def start_run(store_home: str, experiment_name: str, run_id: str, start_ms: int) -> str:
    """A RUNNING MLflow run for the v1 run ``run_id``; returns MLflow's run id."""
    from mlflow.entities import RunTag

    mlstore = store(store_home)
    run = mlstore.create_run(experiment_id(mlstore, experiment_name), user(), start_ms,
                             [RunTag(RUN_ID_TAG, run_id)], run_id)
    return run.info.run_id


EXPORTED_TAG = "acpt.v1.exported"  # v1 metric values copied so far (an acpt.v1* tag: never a user tag)
_BATCH = 900  # MLflow's log_batch takes at most 1000 entities: metrics plus the progress tag


def set_status(store_home: str, mlflow_run_id: str, status: str, end_ms: int | None) -> None:
    from mlflow.entities import RunStatus

    if status in _STATUS:
        store(store_home).update_run_info(mlflow_run_id, RunStatus.from_string(_STATUS[status]),
                                          end_ms if status != "Running" else None, None)


def export_records(store_home: str, mlflow_run_id: str, records, tag_records=()) -> tuple[dict, list[str]]:
    """Copy v1 records into the MLflow run: numbers as metrics, the rest as record tags (``_v1_records``' one
    MLflow form). Resumable: each batch carries the count copied so far in the same transaction, so a copy cut
    off (a crash, a full disk) and done again by whoever finishes the run next ends with exactly one copy.
    Returns ({v1 name: MLflow key}, problems)."""
    from mlflow.entities import Metric, RunTag

    from ...tracking import TAG, latest, to_mlflow
    from .mlflow_store import safe_key

    mlstore = store(store_home)
    keys: dict = {}
    taken: set = set()  # a key the job logged through MLflow itself is the same metric (as on v2): appended to

    def key_for(name) -> str:  # two v1 names that MLflow would spell alike get distinct keys
        if name not in keys:
            key, number = safe_key(name), 2
            while key in taken:
                key, number = f"{safe_key(name)}_{number}", number + 1
            keys[name] = key
            taken.add(key)
        return keys[name]

    metrics, tags = [], {}
    for rec in records:
        metric, extra = to_mlflow(rec)
        tags.update(extra)
        if metric is not None:
            name, value, step, ms = metric
            metrics.append(Metric(key_for(name), float(value), ms, step))
    tags.update(latest(tag_records, TAG))
    done = int(mlstore.get_run(mlflow_run_id).data.tags.get(EXPORTED_TAG) or 0)
    problems = []
    for start in range(done, len(metrics), _BATCH):
        end = min(start + _BATCH, len(metrics))
        try:
            mlstore.log_batch(mlflow_run_id, metrics=metrics[start:end], params=[],
                              tags=[RunTag(EXPORTED_TAG, str(end))])
        except Exception as err:  # noqa: BLE001 - reported; a later finish resumes from here
            problems.append(f"metrics {start}-{end - 1}: {err}")
            break
    for name, value in tags.items():  # setting a tag again changes nothing
        try:
            mlstore.set_tag(mlflow_run_id, RunTag(safe_key(name), "" if value is None else str(value)))
        except Exception as err:  # noqa: BLE001
            problems.append(f"tag {name!r}: {err}")
    return {str(name): key for name, key in keys.items()}, problems


def metric_histories(store_home: str, mlflow_run_id: str, skip=()) -> dict:
    """{key: [(value, step, timestamp ms)]} of an MLflow run's metrics (keys in ``skip`` left out)."""
    mlstore = store(store_home)
    run = mlstore.get_run(mlflow_run_id)
    return {key: [(m.value, m.step, m.timestamp) for m in mlstore.get_metric_history(mlflow_run_id, key)]
            for key in run.data.metrics if key not in skip}


def driver_runs(store_home: str, experiment_name: str) -> list:
    """MLflow runs of an experiment started straight through MLflow (``mlflow.start_run()`` in the driver)."""
    if not exists(store_home):
        return []
    from mlflow.entities import ViewType

    mlstore = store(store_home)
    found = mlstore.get_experiment_by_name(experiment_name)
    if found is None:
        return []
    runs, token = [], None
    while True:
        page = mlstore.search_runs([found.experiment_id], "", ViewType.ACTIVE_ONLY, 1000, ["attributes.start_time DESC"],
                                   token)
        runs.extend(r for r in page if RUN_ID_TAG not in r.data.tags)
        token = page.token
        if not token:
            return runs


def export_run(paths, record: dict) -> list[str]:
    """The run's v1 records into its MLflow run (made now if it has none; ``record`` gets its id). What
    get_metrics must not list twice is saved: the keys that copy v1 metrics."""
    from ...tracking import read_records
    from .store import write_json

    mlflow = record.setdefault("mlflow", {})
    if not mlflow.get("runId"):  # a run that did not use MLflow: its copy holds only what it logged through v1
        start = record.get("startTime") or record.get("createdTime") or 0
        mlflow.update(runId=start_run(paths.home, record["experimentName"], record["runId"], int(start * 1000)),
                      trackingUri=tracking_uri(paths.home), copyOnly=True)
    if not os.path.isdir(paths.metrics):  # only made when something was logged
        return []
    from .store import within

    if not within(paths.root, paths.metrics):  # a link the job left to another run's metrics: not followed
        return ["its metrics (metrics/ is a link that leads out of the run folder)"]
    keys, problems = export_records(paths.home, mlflow["runId"], read_records(paths.metrics),
                                    read_records(paths.metrics, tags=True))
    if keys:
        write_json(os.path.join(paths.metrics, "mlflow_exported.json"), sorted(set(keys.values())))
    return problems


def finish_run(paths, record: dict, status: str, ended: float | None) -> None:
    """The MLflow run's final status (after the copy, as a job's)."""
    set_status(paths.home, record["mlflow"]["runId"], status, int(ended * 1000) if ended else None)


def sync(store_home: str) -> list[str]:
    """Copy every finished local run that has no MLflow run yet into the store; returns what could not be."""
    from .store import all_run_records, run_paths, write_json
    from .store_grants import protected

    if protected(store_home):  # in a job with a read-only view of the store: its driver copies them when asked
        return []
    problems = []
    for record in all_run_records(store_home):
        if (record.get("mlflow") or {}).get("runId") or record.get("runType") == "hyperdrive" \
                or record.get("status") not in ("Completed", "Failed", "Canceled"):
            continue
        paths = run_paths(record["runId"], store_home)
        try:
            problems += export_run(paths, record)
        finally:
            finish_run(paths, record, record["status"], record.get("endTime"))
        write_json(paths.run_json, record)
    return problems


def loaded(store_home: str) -> bool:
    """Whether this process already opened the MLflow store (copying into it then costs no import)."""
    return os.path.abspath(store_home) in _stores


def synced_tracking_uri(store_home: str) -> str:
    """``ws.get_mlflow_tracking_uri()`` on this machine: the store, with every finished local run copied in."""
    sync(store_home)
    return tracking_uri(store_home)


def _candidates(store_home: str, experiment_name: str) -> list | None:
    """(run id, status, end time) of the experiment's runs started through MLflow, read with sqlite3 so that
    listing runs imports nothing when nothing changed; None when the database cannot be read that way."""
    import sqlite3

    try:
        with sqlite3.connect(f"file:{os.path.join(store_home, DB_NAME)}?mode=ro", uri=True) as db:
            return db.execute(
                "SELECT r.run_uuid, r.status, r.end_time FROM runs r JOIN experiments e ON "
                "r.experiment_id = e.experiment_id WHERE e.name = ? AND r.lifecycle_stage = 'active' AND NOT EXISTS "
                "(SELECT 1 FROM tags t WHERE t.run_uuid = r.run_uuid AND t.key = ?)",
                (experiment_name, RUN_ID_TAG)).fetchall()
    except sqlite3.Error:
        return None


def adopt_driver_runs(store_home: str, experiment_name: str) -> None:
    """Give each MLflow run started straight through MLflow (``mlflow.start_run()`` in the driver) a local run
    record, so ``experiment.get_runs()`` lists it, with its metrics in v1 shapes, like a run of the experiment
    (on v2 such a run is a job of the experiment). Records are refreshed while the MLflow run changes."""
    from .store import read_json, run_paths, write_json
    from .store_grants import protected

    if not exists(store_home) or protected(store_home):  # a job with a read-only store leaves it to the driver
        return
    candidates = _candidates(store_home, experiment_name)
    if candidates is not None:
        stale = []
        for run_uuid, status, end_time in candidates:
            try:
                seen = read_json(run_paths(run_uuid, store_home).run_json).get("mlflow") or {}
            except (OSError, ValueError):
                seen = {}
            if (seen.get("status"), seen.get("endTime")) != (status, end_time):
                stale.append(run_uuid)
        if not stale:
            return
    for run in driver_runs(store_home, experiment_name):
        info = run.info
        paths = run_paths(info.run_id, store_home)
        try:
            record = read_json(paths.run_json)
        except (OSError, ValueError):
            os.makedirs(paths.root, exist_ok=True)
            record = {"runId": info.run_id, "experimentName": experiment_name, "target": "local",
                      "runType": "mlflow", "createdTime": info.start_time / 1000, "properties": {},
                      "workspace": {"name": "local"}}
        record.update(
            displayName=info.run_name, status=V1_STATUS.get(info.status, "Running"),
            startTime=info.start_time / 1000, endTime=info.end_time / 1000 if info.end_time else None,
            parentRunId=run.data.tags.get("mlflow.parentRunId"),
            tags={k: v for k, v in run.data.tags.items() if not k.startswith("mlflow.")},
            mlflow={"runId": info.run_id, "trackingUri": tracking_uri(store_home), "status": info.status,
                    "endTime": info.end_time})
        write_json(paths.run_json, record)
