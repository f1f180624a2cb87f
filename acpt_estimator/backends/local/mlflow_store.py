"""Local runs as MLflow file-store runs (``<home>/mlruns``), written without importing mlflow.

``import mlflow`` costs about 1 s, which would dominate a short local job; the file-store layout (in
maintenance mode in MLflow 3, so stable) is a handful of small files. The MLflow run id is the Azure-style
run id, as on Azure ML v2, so ``mlflow.log_metric`` inside a job (MLFLOW_RUN_ID) lands in the same run.
Tests read the result back with MLflow's own client.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import math
import os
import re

from .store import file_uri, mlruns_folder, user

STATUS = {"Running": 1, "Completed": 3, "Failed": 4, "Canceled": 5}
_UNSAFE = re.compile(r"[^\w\-. :/]")


def tracking_uri(store_home: str) -> str:
    return file_uri(mlruns_folder(store_home))


@functools.lru_cache(maxsize=64)
def experiment_id(name: str) -> str:
    """A stable numeric id per experiment name, like MLflow's own 18-19 digit ids."""
    return str(int(hashlib.sha256(name.encode()).hexdigest()[:15], 16))


def safe_key(name) -> str:
    """MLflow keys allow letters, digits, _ - . space : / only; v1 names may hold anything."""
    key = _UNSAFE.sub("_", str(name)).replace("..", "_").strip("/ ")
    return key or "_"


def _yaml(mapping: dict) -> str:
    # JSON scalars are valid YAML flow scalars; this avoids a YAML dependency on the hot path.
    return "".join(f"{k}: {json.dumps(v)}\n" for k, v in mapping.items())


def _write(path: str, text: str) -> None:
    tmp = f"{path}.{os.getpid()}.tmp"
    with open(tmp, "w", encoding="utf-8") as handle:
        handle.write(text)
    os.replace(tmp, path)


def _write_new(path: str, text: str) -> None:
    """For files nobody can be reading yet: no temporary file and rename."""
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)


def _ensure_experiment(root: str, exp_id: str, name: str, now_ms: int) -> None:
    meta = os.path.join(root, exp_id, "meta.yaml")
    if os.path.exists(meta):
        return
    os.makedirs(os.path.dirname(meta), exist_ok=True)
    _write(meta, _yaml({
        "artifact_location": file_uri(os.path.join(root, exp_id)), "creation_time": now_ms,
        "effective_trace_archival_retention": None, "experiment_id": exp_id, "last_update_time": now_ms,
        "lifecycle_stage": "active", "name": name, "trace_location": None, "workspace": "default"}))


def run_folder(store_home: str, exp_id: str, run_id: str) -> str:
    return os.path.join(mlruns_folder(store_home), exp_id, run_id)


def create_run(store_home: str, experiment_name: str, run_id: str, *, start_ms: int, artifact_dir: str) -> str:
    """Create the experiment (if new) and the run; returns the MLflow experiment id."""
    root = mlruns_folder(store_home)
    if not os.path.isdir(os.path.join(root, "0")):
        _ensure_experiment(root, "0", "Default", start_ms)  # what MLflow creates in a new store
    exp_id = experiment_id(experiment_name)
    _ensure_experiment(root, exp_id, experiment_name, start_ms)
    folder = run_folder(store_home, exp_id, run_id)
    for path in (folder, *(os.path.join(folder, sub) for sub in ("metrics", "params", "artifacts"))):
        os.mkdir(path)  # metrics/, params/, artifacts/: what MLflow checks to accept a run folder
    _write_meta(folder, exp_id, run_id, artifact_dir, start_ms, None, "Running", fresh=True)
    return exp_id


def _write_meta(folder, exp_id, run_id, artifact_dir, start_ms, end_ms, status, fresh=False) -> None:
    # The artifact location is the run's files/ folder, so outputs/ and user_logs/ show up in `mlflow ui`
    # and mlflow.log_artifact() in a job lands among the run's files.
    (_write_new if fresh else _write)(os.path.join(folder, "meta.yaml"), _yaml({
        "artifact_uri": file_uri(artifact_dir), "end_time": end_ms, "entry_point_name": "",
        "experiment_id": exp_id, "lifecycle_stage": "active", "run_id": run_id, "run_name": run_id,
        "source_name": "", "source_type": 4, "source_version": "", "start_time": start_ms,
        "status": STATUS[status], "tags": [], "user_id": user(), "deleted_time": None}))


def finish_run(store_home, exp_id, run_id, *, artifact_dir, start_ms, end_ms, status) -> None:
    # No mlflow.runName/mlflow.user tags: MLflow reads both from meta.yaml, and every file costs launch time.
    _write_meta(run_folder(store_home, exp_id, run_id), exp_id, run_id, artifact_dir, start_ms, end_ms, status)


class KeyMap:
    """v1 names -> MLflow keys of one namespace (metrics/ or tags/ of a run) that never collide.

    In the file store a key with '/' is a folder path, so ``loss`` (a file) and ``loss/val`` (a file in a
    folder ``loss``) cannot both exist; nor can two names that sanitise alike. The first name keeps its key,
    a clashing one is flattened (``loss/val`` -> ``loss_val``) and numbered if still taken. Keys already on
    disk (logged with mlflow.log_metric in the job) count as taken folders or files.
    """

    def __init__(self, root: str):
        self._files, self._dirs, self._keys = set(), set(), {}
        for dirpath, _, names in os.walk(root):
            for name in names:
                self._take(os.path.relpath(os.path.join(dirpath, name), root).replace(os.sep, "/"))

    def _take(self, key: str) -> None:
        self._files.add(key)
        parts = key.split("/")
        self._dirs.update("/".join(parts[:i]) for i in range(1, len(parts)))

    def _clashes(self, key: str, name) -> bool:
        parts = key.split("/")
        if key in self._dirs or any("/".join(parts[:i]) in self._files for i in range(1, len(parts))):
            return True  # a file where a folder is needed, or the other way round
        return key in self._files and self._keys.get(name) != key and key in self._keys.values()

    def key(self, name) -> str:
        if name in self._keys:
            return self._keys[name]
        key = safe_key(name)
        if self._clashes(key, name):
            key = key.replace("/", "_")
            base, number = key, 2
            while self._clashes(key, name):
                key, number = f"{base}_{number}", number + 1
        self._keys[name] = key
        self._take(key)
        return key


def set_tags(folder: str, tags: dict) -> list[str]:
    """Write each tag on its own; returns what could not be written (never raises for one bad tag)."""
    root = os.path.join(folder, "tags")
    os.makedirs(root, exist_ok=True)
    keys, problems = KeyMap(root), []
    for name, value in tags.items():
        key = keys.key(name)
        try:
            path = os.path.join(root, *key.split("/"))
            os.makedirs(os.path.dirname(path), exist_ok=True)
            _write(path, "" if value is None else str(value))
        except OSError as err:
            problems.append(f"tag {name!r} (as {key!r}): {err}")
    return problems


def export_records(folder: str, records, tag_records=(), manifest: str | None = None) -> tuple[dict, list[str]]:
    """Copy v1 records into the MLflow run in the one MLflow form (``job_runtime/_v1_records.py``): numbers as
    metrics, everything MLflow has no type for as record tags, so a reader rebuilds v1's shapes.

    Returns ({v1 name: MLflow key} of the exported metrics, problems). Keys never collide (KeyMap), and each
    metric and tag is written on its own, so one that cannot be written (a full disk) never stops the others.
    ``manifest`` ({key: size of the metric file before the copy}) is written before any metric file grows, so
    that a crash at any point neither doubles a metric (readers skip its keys: the v1 records hold the values)
    nor loses one, and exporting again (a reopened run) truncates to the sizes recorded and writes once more.
    """
    from ...tracking import TAG, latest, to_mlflow

    series: dict = {}
    tags = {}
    for rec in records:
        metric, extra = to_mlflow(rec)
        tags.update(extra)
        if metric is not None:
            name, value, step, ms = metric
            series.setdefault(name, []).append((ms, value, step))
    root = os.path.join(folder, "metrics")
    keys = KeyMap(root)
    named = {name: keys.key(name) for name in series}
    offsets = {key: _size(os.path.join(root, *key.split("/"))) for key in named.values()}
    if manifest is not None:
        offsets.update({k: v for k, v in _read_manifest(manifest).items() if k in offsets})
        _write(manifest, json.dumps(offsets, sort_keys=True))  # raises on a full disk: nothing copied then
    exported, problems = {}, []
    for name, points in series.items():
        key = named[name]
        path = os.path.join(root, *key.split("/"))
        try:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "ab") as handle:
                handle.truncate(offsets[key])  # an earlier, interrupted copy goes first
                handle.write("".join(f"{ms} {_number(v)} {step}\n" for ms, v, step in points).encode())
        except OSError as err:
            with contextlib.suppress(OSError):
                os.truncate(path, offsets[key])  # no torn line left for MLflow to read
            problems.append(f"metric {name!r} (as {key!r}): {err}")
            continue
        exported[str(name)] = key
    problems += set_tags(folder, {**tags, **latest(tag_records, TAG)})
    return exported, problems


def _size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def _read_manifest(path: str) -> dict:
    try:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}  # a list: written by an older version, sizes unknown


def read_metrics(folder: str, skip=()) -> dict:
    """{key: [(value, step, timestamp ms)]} of metrics logged straight through MLflow (keys in ``skip`` left out)."""
    root = os.path.join(folder, "metrics")
    found = {}
    for dirpath, _, names in os.walk(root):
        for name in names:
            key = os.path.relpath(os.path.join(dirpath, name), root).replace(os.sep, "/")
            if key in skip:
                continue
            with open(os.path.join(dirpath, name), encoding="utf-8", errors="replace") as handle:
                rows = [_row(line) for line in handle]
            found[key] = [row for row in rows if row is not None]
    return found


def _row(line: str):
    """(value, step, ms) of one metric line; None for a torn line a crash (or a full disk) left."""
    parts = line.split()
    try:
        return float(parts[1]), int(parts[2]) if len(parts) > 2 else 0, int(parts[0])
    except (IndexError, ValueError):
        return None


def _number(value: float) -> str:
    return repr(value) if math.isfinite(value) else ("nan" if math.isnan(value) else ("inf" if value > 0 else "-inf"))


