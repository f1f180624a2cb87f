"""Run tracking: per-process JSON-lines records of metrics, tags and files, read back with v1 semantics.

Every process that logs (each rank, the driver) appends to its own ``<run>/metrics/<writer>.jsonl`` with one
``O_APPEND`` write per call: no lock, nothing lost when ranks log at once or one crashes, and no
``import mlflow`` (about 1 s) in the ranks. The driver copies the records into the run's MLflow store
after the job, so ``mlflow ui`` shows them too.
"""

from __future__ import annotations

import glob
import json
import os
import shutil
import time

from acpt_estimator.v1.core.run import check_log_value
from .exceptions import UserErrorException
from .paths import contained

RUN_DIR_VAR = "ACPT_ESTIMATOR_RUN_DIR"
RUN_ID_VAR = "ACPT_ESTIMATOR_RUN_ID"
SCALAR, LIST, ROW, TABLE, IMAGE, OBJECT, TAG, PROPERTY, EVENT = (
    "metric", "list", "row", "table", "image", "object", "tag", "property", "event")


TAGS_SUFFIX = ".tags.jsonl"  # tags, properties and events live apart, so reading them never scans metrics


class RecordWriter:
    """Appends records for one writer; timestamps never go backwards within a writer."""

    def __init__(self, folder: str, writer: str, suffix: str = ".jsonl"):
        self.path = os.path.join(folder, f"{writer}{suffix}")
        self.writer = writer
        self._fd = None
        self._pid = None
        self._seq = 0
        self._last = 0

    def write(self, kind: str, name, value=None, **extra) -> None:
        now = max(time.time_ns() // 1000, self._last + 1)  # microseconds, strictly increasing
        self._last = now
        self._seq += 1
        record = {"t": now, "s": self._seq, "w": self.writer, "k": kind, "n": name, "v": _plain(value)}
        record.update({k: v for k, v in extra.items() if v is not None})
        line = (json.dumps(record, default=str) + "\n").encode()
        if self._fd is None or os.getpid() != self._pid:
            os.makedirs(os.path.dirname(self.path), exist_ok=True)
            self._fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
            self._pid = os.getpid()
        os.write(self._fd, line)


def _plain(value):
    """numpy/torch scalars become Python numbers; containers are converted item by item."""
    if hasattr(value, "item") and callable(value.item) and getattr(value, "ndim", 0) == 0:
        try:
            return value.item()
        except (TypeError, ValueError):
            pass
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, range)) or (hasattr(value, "tolist") and callable(value.tolist)):
        items = value.tolist() if hasattr(value, "tolist") else value
        return [_plain(v) for v in items]
    return value


def read_records(folder: str, tags: bool = False) -> list[dict]:
    """A run's metric records (or, with ``tags``, its tag/property/event records) in time order.

    Records of one writer keep their order; writers are merged by timestamp.
    """
    records = []
    paths = glob.glob(os.path.join(folder, "*" + (TAGS_SUFFIX if tags else ".jsonl")))
    for path in paths if tags else [p for p in paths if not p.endswith(TAGS_SUFFIX)]:
        with open(path, "rb") as handle:
            for line in handle:
                try:
                    records.append(json.loads(line))
                except ValueError:
                    continue  # a line cut short by a killed process; every complete one is kept
    records.sort(key=lambda r: (r.get("t", 0), r.get("w", ""), r.get("s", 0)))
    return records


def metrics_from_records(records, name=None) -> dict:
    """v1 ``get_metrics``: once -> the value, repeated -> a list, rows/tables -> {column: [...]}."""
    scalars, lists, tables, order = {}, {}, {}, {}  # order: a dict keeps first-seen order in O(1)
    for rec in records:
        kind, key, value = rec.get("k"), rec.get("n"), rec.get("v")
        if kind not in (SCALAR, IMAGE, OBJECT, LIST, ROW, TABLE) or (name is not None and key != name):
            continue
        order.setdefault(key, None)
        if kind in (SCALAR, IMAGE, OBJECT):
            scalars.setdefault(key, []).append(value)
        elif kind == LIST:
            lists.setdefault(key, []).extend(value)
        else:
            columns = tables.setdefault(key, {})
            for column, cell in value.items():
                cells = columns.setdefault(column, [])
                cells.extend(cell) if kind == TABLE else cells.append(cell)
    result = {}
    for key in order:
        if key in tables:
            result[key] = tables[key]
        elif key in lists:
            result[key] = lists[key]
        else:
            values = scalars[key]
            result[key] = values[0] if len(values) == 1 else values
    return result


def latest(records, kind: str) -> dict:
    """Tags or properties: the last value written for each key."""
    values = {}
    for rec in records:
        if rec.get("k") == kind:
            values[rec["n"]] = rec.get("v")
    return values


class RecordingRun:
    """v1's logging surface (``run.log``, ``tag``, ``upload_file``...) over a run folder.

    Subclasses provide ``_run_dir`` (the run folder) and ``_writer_name`` (``rank_<r>`` or ``driver``).
    """

    _run_dir: str
    _writer_name: str = "driver"
    _writer_obj = None
    _tag_writer_obj = None

    @property
    def _writer(self) -> RecordWriter:
        if self._writer_obj is None:
            self._writer_obj = RecordWriter(os.path.join(self._run_dir, "metrics"), self._writer_name)
        return self._writer_obj

    @property
    def _tag_writer(self) -> RecordWriter:
        if self._tag_writer_obj is None:
            self._tag_writer_obj = RecordWriter(os.path.join(self._run_dir, "metrics"), self._writer_name,
                                                TAGS_SUFFIX)
        return self._tag_writer_obj

    @property
    def _files_dir(self) -> str:
        return os.path.join(self._run_dir, "files")

    def _records(self, tags: bool = False) -> list[dict]:
        return read_records(os.path.join(self._run_dir, "metrics"), tags=tags)

    # ---- metrics ------------------------------------------------------------------------------------
    def log(self, name, value, description="", step=None):
        check_log_value(name, value)
        self._writer.write(SCALAR, name, value, step=step, d=description or None)

    def log_list(self, name, value, description=""):
        self._writer.write(LIST, name, _plain(list(value)), d=description or None)

    def log_row(self, name, description=None, **kwargs):
        self._writer.write(ROW, name, kwargs, d=description or None)

    def log_table(self, name, value, description=""):
        if not isinstance(value, dict):
            raise UserErrorException(f"run.log_table({name!r}, ...) needs a dict of columns, e.g. "
                                     "{'epoch': [1, 2], 'loss': [0.5, 0.4]}; got a " + type(value).__name__ + ".")
        self._writer.write(TABLE, name, {k: _plain(list(v)) for k, v in value.items()}, d=description or None)

    def log_image(self, name, path=None, plot=None, description=""):
        if (path is None) == (plot is None):
            raise UserErrorException(f"run.log_image({name!r}) needs exactly one of path= and plot=.")
        extension = os.path.splitext(str(path))[1] if path is not None else ".png"
        artifact = f"{_safe_name(name)}_{int(time.time() * 1000)}{extension or '.png'}"
        target = os.path.join(self._files_dir, artifact)
        os.makedirs(self._files_dir, exist_ok=True)
        if path is not None:
            shutil.copyfile(path, target)
        else:
            plot.savefig(target)
        self._writer.write(IMAGE, name, artifact, d=description or None)

    def log_confusion_matrix(self, name, value, description=""):
        self._writer.write(OBJECT, name, value, d=description or None)

    def get_metrics(self, name=None, recursive=False, run_type=None, populate=False) -> dict:
        return metrics_from_records(self._records(), name)

    # ---- tags and properties ------------------------------------------------------------------------
    def tag(self, key, value=None):
        self._tag_writer.write(TAG, key, "" if value is None else str(value))

    def set_tags(self, tags):
        for key, value in dict(tags).items():
            self.tag(key, value)

    def add_properties(self, properties):
        for key, value in dict(properties).items():
            self._tag_writer.write(PROPERTY, key, str(value))

    def get_tags(self) -> dict:
        tags = dict(self._initial("tags"))
        tags.update(latest(self._records(tags=True), TAG))
        return tags

    def get_properties(self) -> dict:
        props = dict(self._initial("properties"))
        props.update(latest(self._records(tags=True), PROPERTY))
        return props

    @property
    def tags(self) -> dict:
        return self.get_tags()

    @property
    def properties(self) -> dict:
        return self.get_properties()

    def _initial(self, key: str) -> dict:
        return {}

    # ---- files --------------------------------------------------------------------------------------
    def upload_file(self, name, path_or_stream, datastore_name=None):
        target = self._run_file(name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        if isinstance(path_or_stream, (str, os.PathLike)):
            shutil.copyfile(path_or_stream, target)
        else:
            with open(target, "wb") as handle:
                shutil.copyfileobj(path_or_stream, handle)

    def upload_files(self, names, paths, return_artifacts=False, timeout_seconds=None, datastore_name=None):
        for name, path in zip(names, paths):
            self.upload_file(name, path)

    def upload_folder(self, name, path, datastore_name=None):
        shutil.copytree(path, self._run_file(name), dirs_exist_ok=True)

    def _run_file(self, name) -> str:
        """Where run file ``name`` lives: always inside the run's files folder."""
        return contained(self._files_dir, name, parameter="name", what="the run's files",
                         fix="Name the file relative to the run, e.g. name='outputs/model.pt'.")

    # ---- in-job lifecycle calls: recorded, the driver decides the status (as v1's _SubmittedRun) -----
    def complete(self, _set_status=True):
        self._tag_writer.write(EVENT, "complete")

    def fail(self, error_details=None, error_code=None, _set_status=True):
        self._tag_writer.write(EVENT, "fail", None if error_details is None else str(error_details), code=error_code)

    def flush(self, timeout_seconds=300):
        return None


def _safe_name(name) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in str(name)) or "image"


_job_run = None


def run_from_job_environment():
    """The run of the job this process belongs to (set up by the local launcher), else None."""
    global _job_run
    run_dir, run_id = os.environ.get(RUN_DIR_VAR), os.environ.get(RUN_ID_VAR)
    if not run_dir or not run_id or not os.path.isdir(run_dir):
        return None
    if _job_run is None or _job_run.id != run_id:
        from .backends.local.run import LocalRun

        _job_run = LocalRun.in_job(run_dir)
    return _job_run
