"""Run tracking: per-process JSON-lines records of metrics, tags and files, read back with v1 semantics.

Every process that logs (each rank, the driver) appends to its own ``<run>/metrics/<writer>.jsonl`` with one
``O_APPEND`` write per call: no lock, nothing lost when ranks log at once or one crashes, and no
``import mlflow`` (about 1 s) in the ranks. The driver copies the records into the run's MLflow store
after the job, so ``mlflow ui`` shows them too.
"""

from __future__ import annotations

import json
import os
import shutil
import time

from .exceptions import UserErrorException
from .paths import contained
from .job_runtime._v1_records import (  # noqa: F401 - the engine's door to the one v1 record/shape module
    EVENT, IMAGE, LIST, OBJECT, PROPERTY, ROW, SCALAR, TABLE, TAG, UNTAG, V1Logging, command_arguments, details,
    from_metrics_v2, from_mlflow, hyperparameters_json,
    latest, plain, record, sort_records, tags_match, to_mlflow, user_tags)
from .job_runtime._v1_records import metrics as metrics_from_records  # noqa: F401

RUN_DIR_VAR = "ACPT_ESTIMATOR_RUN_DIR"
RUN_ID_VAR = "ACPT_ESTIMATOR_RUN_ID"


def local_job_run() -> tuple[str, str] | None:
    """(run folder, run id) of the local job this process is a rank of, as its launcher set them; else None. Asked
    before any backend is loaded: outside a job, Run.get_context() then loads none."""
    run_dir, run_id = os.environ.get(RUN_DIR_VAR), os.environ.get(RUN_ID_VAR)
    return (run_dir, run_id) if run_dir and run_id else None


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
        line = (json.dumps(record(kind, name, value, now, self.writer, self._seq, **extra), default=str) + "\n").encode()
        if self._fd is None or os.getpid() != self._pid:
            os.makedirs(os.path.dirname(self.path), exist_ok=True)
            self._fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
            self._pid = os.getpid()
        os.write(self._fd, line)



def read_records(folder: str, tags: bool = False) -> list[dict]:
    """A run's metric records (or, with ``tags``, its tag/property/event records) in time order.

    Records of one writer keep their order; writers are merged by timestamp.
    """
    records = []
    try:
        names = os.listdir(folder)  # (glob's "*<suffix>": no hidden names; a missing folder holds none)
    except OSError:
        names = []
    suffix = TAGS_SUFFIX if tags else ".jsonl"
    for name in names:
        if name.startswith(".") or not name.endswith(suffix) or (not tags and name.endswith(TAGS_SUFFIX)):
            continue
        with open(os.path.join(folder, name), "rb") as handle:
            for line in handle:
                try:
                    records.append(json.loads(line))
                except ValueError:
                    continue  # a line cut short by a killed process; every complete one is kept
    return sort_records(records)




class RecordingRun(V1Logging):
    """v1's logging surface (``run.log``, ``tag``, ``upload_file``...) over a run folder.

    Subclasses provide ``_run_dir`` (the run folder) and ``_writer_name`` (``rank_<r>`` or ``driver``).
    """

    _user_error = UserErrorException
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

    def _write_record(self, kind, name, value, **extra):
        self._writer.write(kind, name, value, **extra)

    def _store_image(self, artifact, path=None, plot=None):
        target = os.path.join(self._files_dir, artifact)
        os.makedirs(self._files_dir, exist_ok=True)
        if path is not None:
            shutil.copyfile(path, target)
        else:
            plot.savefig(target)

    def get_metrics(self, name=None, recursive=False, run_type=None, populate=False) -> dict:
        return metrics_from_records(self._records(), name, run_id=getattr(self, "id", None))

    # ---- tags and properties ------------------------------------------------------------------------
    def tag(self, key, value=None):
        self._tag_writer.write(TAG, key, "" if value is None else str(value))

    def set_tags(self, tags):
        for key, value in dict(tags).items():
            self.tag(key, value)

    def add_properties(self, properties):
        for key, value in dict(properties).items():
            self._tag_writer.write(PROPERTY, key, str(value))

    def remove_tags(self, tags):
        for key in [tags] if isinstance(tags, str) else list(tags):
            self._tag_writer.write(UNTAG, key)

    def get_tags(self) -> dict:
        return latest(self._records(tags=True), TAG, initial=self._initial("tags"))

    def get_properties(self) -> dict:
        return latest(self._records(tags=True), PROPERTY, initial=self._initial("properties"))

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
