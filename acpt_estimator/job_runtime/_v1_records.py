"""v1 run semantics written once: records (what a backend stores) in, v1's shapes (get_metrics, tags, ...) out.

A record is ``{"t": microseconds, "w": writer, "s": sequence, "k": kind, "n": name, "v": value}``. The local
store keeps records as JSON lines; MLflow (cloud runs, the in-job Run, local ``mlflow ui``) keeps numbers as metrics
and every value MLflow has no type for (strings, bools, lists, rows, tables, images, objects, odd names) as run
tags ``acpt.v1/<writer>/<seq>.<chunk>`` holding the record's JSON, split into chunks of ``CHUNK`` characters.
On Azure ML, numbers and what the image's azureml-core logs are read from run history's metric v2 API
(``from_metrics_v2``), where the service keeps MLflow's numbers too.
Ships with jobs (standard library only) and is imported by acpt_estimator, so there is no second copy.
"""

from __future__ import annotations

import json
import math
import os
import re
import time

SCALAR, LIST, ROW, TABLE, IMAGE, OBJECT, TAG, UNTAG, PROPERTY, EVENT = (
    "metric", "list", "row", "table", "image", "object", "tag", "untag", "property", "event")
METRIC_KINDS = (SCALAR, IMAGE, OBJECT, LIST, ROW, TABLE)
RECORD_TAG = "acpt.v1/"  # one tag per record MLflow cannot hold as a metric
INT_TAG = "acpt.v1.int/"  # marks a metric logged as Python ints, so it reads back as ints
CHUNK = 4000  # tag values stay well under the service's limit (MLflow allows 8000)
_SAFE_KEY = re.compile(r"^[\w\-. :/]{1,250}$")


def plain(value):
    """numpy/torch scalars become Python numbers; containers are converted item by item."""
    if hasattr(value, "item") and callable(value.item) and getattr(value, "ndim", 0) == 0:
        try:
            return value.item()
        except (TypeError, ValueError):
            pass
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, range)) or (hasattr(value, "tolist") and callable(value.tolist)):
        items = value.tolist() if hasattr(value, "tolist") else value
        return [plain(v) for v in items]
    return value


def log_value_error(name, value):
    """v1 refuses lists in ``run.log`` (``run.log_list`` takes them); the message, or None when the value is fine."""
    if isinstance(value, (list, tuple, range)) or hasattr(value, "__next__"):
        return (f"run.log does not support list type. Use run.log_list instead. (metric {name!r} got a "
                f"{type(value).__name__}; call run.log_list({name!r}, values).)")
    return None


def table_error(name, value):
    if not isinstance(value, dict):
        return (f"run.log_table({name!r}, ...) needs a dict of columns, e.g. {{'epoch': [1, 2], 'loss': [0.5, 0.4]}}; "
                f"got a {type(value).__name__}.")
    return None


def image_artifact(name, path=None) -> str:
    """Where ``log_image`` keeps the picture among the run's files (v1: the name and a millisecond time)."""
    safe = "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in str(name)) or "image"
    extension = (os.path.splitext(str(path))[1] if path is not None else "") or ".png"
    return f"{safe}_{int(time.time() * 1000)}{extension}"


def record(kind, name, value, t, writer="", seq=0, **extra) -> dict:
    rec = {"t": t, "s": seq, "w": writer, "k": kind, "n": name, "v": plain(value)}
    rec.update({k: v for k, v in extra.items() if v is not None})
    return rec


def sort_records(records) -> list:
    """Records of one writer keep their order; writers are merged by time."""
    return sorted(records, key=lambda r: (r.get("t", 0), r.get("w", ""), r.get("s", 0)))


class V1Logging:
    """v1's ``log_*`` calls as records; a backend stores them (``_write_record``) and images (``_store_image``)."""

    _user_error = ValueError  # acpt_estimator raises its UserErrorException

    def _write_record(self, kind: str, name, value, **extra) -> None:
        raise NotImplementedError

    def _store_image(self, artifact: str, path=None, plot=None) -> None:
        raise NotImplementedError

    def log(self, name, value, description="", step=None):
        error = log_value_error(name, value)
        if error:
            raise self._user_error(error)
        self._write_record(SCALAR, name, value, step=step, d=description or None)

    def log_list(self, name, value, description=""):
        self._write_record(LIST, name, plain(list(value)), d=description or None)

    def log_row(self, name, description=None, **kwargs):
        self._write_record(ROW, name, kwargs, d=description or None)

    def log_table(self, name, value, description=""):
        error = table_error(name, value)
        if error:
            raise self._user_error(error)
        self._write_record(TABLE, name, {k: plain(list(v)) for k, v in value.items()}, d=description or None)

    def log_image(self, name, path=None, plot=None, description=""):
        if (path is None) == (plot is None):
            raise self._user_error(f"run.log_image({name!r}) needs exactly one of path= and plot=.")
        artifact = image_artifact(name, path)
        self._store_image(artifact, path, plot)
        self._write_record(IMAGE, name, artifact, d=description or None)

    def log_confusion_matrix(self, name, value, description=""):
        self._write_record(OBJECT, name, value, d=description or None)

    log_accuracy_table = log_predictions = log_residuals = log_confusion_matrix  # v1 stores each as a JSON object


# ---- v1 shapes -----------------------------------------------------------------------------------------
def metrics(records, name=None, run_id=None) -> dict:
    """v1 ``get_metrics`` (azureml-core's InlineMetric): logged once -> the value, repeated -> a list, ``log_list``
    -> a list (one element -> that element), rows/tables -> ``{column: [...]}`` (one row -> ``{column: value}``),
    images -> their ``aml://artifactId/...`` path, strings kept."""
    scalars, lists, tables, order = {}, {}, {}, {}  # order: a dict keeps first-seen order in O(1)
    for rec in records:
        kind, key, value = rec.get("k"), rec.get("n"), rec.get("v")
        if kind not in METRIC_KINDS or (name is not None and key != name):
            continue
        order.setdefault(key, None)
        if kind == IMAGE:  # a location read from the service is already whole
            scalars.setdefault(key, []).append(f"aml://artifactId/ExperimentRun/dcid.{run_id}/{value}"
                                               if run_id and not str(value).startswith("aml://") else value)
        elif kind in (SCALAR, OBJECT):
            scalars.setdefault(key, []).append(value)
        elif kind == LIST:
            lists.setdefault(key, []).extend(value)
        else:
            columns = tables.setdefault(key, {})
            for column, cell in value.items():
                cells = columns.setdefault(column, [])
                cells.extend(cell) if kind == TABLE else cells.append(cell)
    result = {}
    for key in order:  # v1's InlineMetric: a single row or list element is the value itself, not a 1-list
        if key in tables:
            columns = tables[key]
            rows = max((len(cells) for cells in columns.values()), default=0)
            result[key] = {column: cells[0] for column, cells in columns.items()} if rows == 1 else columns
        elif key in lists:
            result[key] = lists[key][0] if len(lists[key]) == 1 else lists[key]
        else:
            values = scalars[key]
            result[key] = values[0] if len(values) == 1 else values
    return result


def latest(records, kind: str, initial=None) -> dict:
    """Tags or properties: the last value written for each key (``remove_tags`` records drop a tag)."""
    values = dict(initial or {})
    for rec in records:
        if rec.get("k") == kind:
            values[rec["n"]] = rec.get("v")
        elif kind == TAG and rec.get("k") == UNTAG:
            values.pop(rec["n"], None)
    return values


def user_tags(tags: dict) -> dict:
    """A run's tags as v1 showed them: without the ones carrying records (``acpt.v1*``) or MLflow's own."""
    return {k: v for k, v in (tags or {}).items() if not str(k).startswith(("acpt.v1", "mlflow."))}


def tags_match(found: dict, wanted) -> bool:
    """v1's tag/property filter: a dict matches keys and values, a name or a list of names matches keys."""
    if not wanted:
        return True
    if not isinstance(wanted, dict):
        wanted = {k: None for k in ([wanted] if isinstance(wanted, str) else wanted)}
    return all(k in found and (v is None or found[k] == v) for k, v in wanted.items())


def hyperparameters_json(params) -> str:
    """v1's ``get_hyperparameters()`` value for one trial: the JSON string the service stored."""
    return params if isinstance(params, str) else json.dumps(params)


# ---- run details ---------------------------------------------------------------------------------------
_DETAIL_DEFAULTS = (("runId", None), ("target", None), ("status", None), ("startTimeUtc", None),
                    ("endTimeUtc", None), ("properties", {}), ("inputDatasets", []), ("outputDatasets", []),
                    ("runDefinition", {}), ("logFiles", {}), ("submittedBy", None))


def details(found: dict, error=None) -> dict:
    """v1's ``get_details()`` dict: v1's keys first (defaults where a backend has none), then the rest; an
    error as v1 nested it (``{"error": {...}}``)."""
    shaped = {key: found.get(key, default) for key, default in _DETAIL_DEFAULTS}
    shaped.update({k: v for k, v in found.items() if k not in shaped})
    if error:
        shaped["error"] = error if "error" in error else {"error": error}
    return shaped


_PLACEHOLDER = re.compile(r"\$\{\{(inputs|outputs|search_space)\.([\w.-]+)\}\}")
_DATA_EXPORT = re.compile(r'export AZUREML_DATAREFERENCE_(\w+)="\$\{\{(?:inputs|outputs)\.([\w.-]+)\}\}"')


def command_arguments(command: str, values: dict):
    """(script, arguments) of a v2 job's command as v1's ``runDefinition`` showed them: the program line's words,
    ``${{inputs.x}}``/``${{search_space.x}}`` replaced by ``values[x]`` (as strings), data by the
    ``$AZUREML_DATAREFERENCE_<name>`` v1 used."""
    import shlex

    lines = [line for line in (command or "").splitlines() if line.strip()]
    if not lines:
        return None, []
    references = {name: f"$AZUREML_DATAREFERENCE_{ref}" for ref, name in _DATA_EXPORT.findall(command)}

    def resolve(match):
        name = match.group(2)
        if name in values and values[name] is not None:
            return str(values[name])
        return references.get(name, match.group(0))

    try:
        words = shlex.split(lines[-1])
    except ValueError:
        words = lines[-1].split()
    words = [_PLACEHOLDER.sub(resolve, word) for word in words]
    if len(words) >= 2 and os.path.basename(words[0]).startswith("python"):
        return words[1], words[2:]
    return None, words


# ---- the MLflow form -----------------------------------------------------------------------------------
def metric_key_ok(name) -> bool:
    return isinstance(name, str) and bool(_SAFE_KEY.match(name)) and ".." not in name and not name.startswith("/")


def to_mlflow(rec: dict):
    """(metric or None, tags) for one record: ``metric`` is (key, float, step, timestamp ms)."""
    kind, name, value = rec["k"], rec["n"], rec.get("v")
    numeric = isinstance(value, (int, float)) and not isinstance(value, bool)
    if kind == SCALAR and numeric and metric_key_ok(name):
        tags = {INT_TAG + name: "1"} if isinstance(value, int) else {}
        return (name, float(value), int(rec.get("step", rec.get("s", 0))), rec["t"] // 1000), tags
    text = json.dumps({k: rec[k] for k in ("t", "k", "n", "v") if k in rec}, separators=(",", ":"), default=str)
    base = f"{RECORD_TAG}{rec.get('w') or 'driver'}/{rec.get('s', 0)}"
    return None, {f"{base}.{i // CHUNK}": text[i:i + CHUNK] for i in range(0, len(text), CHUNK)}


def from_mlflow(histories: dict, tags: dict) -> list:
    """Records back from MLflow: ``histories`` is {key: [(value, step, timestamp ms)]}, ``tags`` the run's tags."""
    records = []
    ints = {k[len(INT_TAG):] for k in tags if k.startswith(INT_TAG)}
    for key, points in histories.items():
        for value, step, ms in points:
            if key in ints and math.isfinite(value):
                value = int(value)
            records.append({"t": ms * 1000, "s": step, "w": "", "k": SCALAR, "n": key, "v": value})
    chunks: dict = {}
    for key, text in tags.items():
        if key.startswith(RECORD_TAG):
            base, _, index = key.rpartition(".")
            if index.isdigit():
                chunks.setdefault(base, {})[int(index)] = text
    for base, parts in chunks.items():
        try:
            rec = json.loads("".join(parts[i] for i in range(len(parts))))
        except (KeyError, ValueError):
            continue  # a record whose chunks did not all arrive: the others are kept
        writer, _, seq = base[len(RECORD_TAG):].rpartition("/")
        rec.update(w=writer, s=int(seq) if seq.isdigit() else 0)
        records.append(rec)
    return sort_records(records)


# ---- the run-history metric v2 form (what azureml-core's run.log* writes, and MLflow numbers on Azure ML) ---------
# uxMetricType values and column types as azureml-core 1.61 writes them (azureml/core/_metrics.py).
V2_SCALAR, V2_LIST, V2_TABLE = "azureml.v1.scalar", "azureml.v1.list", "azureml.v1.table"
V2_IMAGES = ("azureml.v2.image", "azureml.v1.image")


def _v2_cell(kind: str, value):
    kind = str(kind or "").lower()
    if value is None or kind in ("string", "artifact", ""):
        return value
    if kind in ("double", "float"):
        return float(value)
    if kind == "int":
        return int(value)
    if kind == "bool":
        return value if isinstance(value, bool) else str(value).lower() == "true"
    if kind == "none":
        return None
    return value


def _v2_time(text) -> int:
    """Microseconds since the epoch of a service timestamp (``2026-01-01T00:00:00.1234567Z``)."""
    from datetime import datetime, timezone

    text = str(text or "1970-01-01T00:00:00Z").replace("Z", "+00:00")
    head, dot, rest = text.partition(".")
    if dot:  # at most six fraction digits for fromisoformat before Python 3.11
        digits = "".join(ch for ch in rest if ch.isdigit())
        text = f"{head}.{digits[:6].ljust(6, '0')}{rest[len(digits):]}"
    stamp = datetime.fromisoformat(text)
    stamp = stamp if stamp.tzinfo else stamp.replace(tzinfo=timezone.utc)
    return int(stamp.timestamp() * 1_000_000)


def from_metrics_v2(metrics, tags=None) -> list:
    """Records from run history's metric v2 API (``MetricV2`` JSON per metric: name, columns,
    properties.uxMetricType, value[{createdUtc, step, data}]) plus the record tags among ``tags``: scalars per
    value (typed by column; numbers logged as ints by our writers read back as ints), lists, table rows, images
    and artifact-backed metrics (v1 returned the first value's ``aml://artifactId/...`` location)."""
    tags = tags or {}
    ints = {k[len(INT_TAG):] for k in tags if k.startswith(INT_TAG)}
    records = from_mlflow({}, tags)
    for metric in metrics:
        name, columns = metric.get("name"), metric.get("columns") or {}
        kind = ((metric.get("properties") or {}).get("uxMetricType") or V2_SCALAR)
        values = metric.get("value") or []
        if kind not in (V2_SCALAR, V2_LIST, V2_TABLE) and kind not in V2_IMAGES:
            values = values[:1]  # artifact-backed (confusion matrix, ...): defined by the first value
        for seq, value in enumerate(values):
            data = value.get("data") or {}
            cells = {col: _v2_cell(columns.get(col), data.get(col)) for col in columns}
            rec = {"t": _v2_time(value.get("createdUtc")), "w": "", "s": seq, "n": name}
            if value.get("step") is not None:
                rec["step"] = value["step"]
            cell = cells.get(name)
            if kind == V2_TABLE or (kind == V2_SCALAR and name not in columns):
                rec.update(k=ROW, v=cells)
            elif kind == V2_LIST:
                rec.update(k=LIST, v=[cell])
            elif kind in V2_IMAGES:
                rec.update(k=IMAGE, v=cell)
            elif kind == V2_SCALAR:
                is_int = name in ints and isinstance(cell, float) and math.isfinite(cell)
                rec.update(k=SCALAR, v=int(cell) if is_int else cell)
            else:
                rec.update(k=OBJECT, v=cell)
            records.append(rec)
    return sort_records(records)
