"""v1 dataset definitions on local files: matching, transformations and ``to_pandas_dataframe`` (pandas).

Self-contained (standard library plus pandas/pyarrow, imported on use): the driver imports it as
``acpt_estimator.job_runtime.acpt_datasets`` and v2 jobs as ``acpt_datasets`` from the job runtime folder, so a
tabular input reads the same way everywhere. A definition is MLTable-shaped (v2's successor to TabularDataset):
``{"type": "tabular"|"file", "transformations": [{"read_delimited": {...}}, {"take": 5}, ...]}``.
"""

from __future__ import annotations

import datetime
import json
import os
import random
import re
import string

DEFINITION_VAR = "ACPT_DATASET_"  # + input name: the definition of a dataset input, for the job
READERS = ("read_delimited", "read_parquet", "read_json_lines")
ROW_STEPS = ("take", "skip", "take_random_sample", "random_split")
# What a local-store writer publishes through (backends/local/atomic): never data, whatever a killed writer left.
TEMPORARY = re.compile(r"\.(?:.+\.[a-z0-9_]{8}\.tmp|staging-(?:\d+-)?[a-z0-9_]{8}|download-[a-z0-9_]{8})")


def glob_regex(pattern: str):
    """v1 path globs: '**' crosses folders, '*' and '?' stay within one."""
    out, i = "", 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out, i = out + "(?:.*/)?", i + 3
        elif pattern.startswith("**", i):
            out, i = out + ".*", i + 2
        elif pattern[i] == "*":
            out, i = out + "[^/]*", i + 1
        elif pattern[i] == "?":
            out, i = out + "[^/]", i + 1
        else:
            out, i = out + re.escape(pattern[i]), i + 1
    return re.compile(out + "$")


def split_glob(path: str) -> tuple[str, str | None]:
    """('folder/', '*.csv') for 'folder/*.csv'; (path, None) without a glob."""
    parts = path.split("/")
    for index, part in enumerate(parts):
        if any(ch in part for ch in "*?["):
            base = "/".join(parts[:index])
            return (base + "/" if base else ""), "/".join(parts[index:])
    return path, None


def select(files: list[str], path: str) -> list[tuple[str, str]]:
    """(file, path relative to the dataset's base) for the files (relative to a root) that ``path`` names.

    A glob selects what matches; a folder ('x' or 'x/') everything under it; otherwise the file itself.
    """
    base, pattern = split_glob(path.lstrip("/"))
    if pattern is not None:
        regex = glob_regex(pattern)
        return [(f, f[len(base):]) for f in files if f.startswith(base) and regex.match(f[len(base):])]
    if base in files:
        return [(base, os.path.basename(base))]
    prefix = base.rstrip("/") + "/" if base.strip("/") else ""
    return [(f, f[len(prefix):]) for f in files if f.startswith(prefix)]


def local_files(root: str) -> list[str]:
    """Every file under ``root``, relative, '/'-separated, sorted; a writer's temporary files are not data."""
    if os.path.isfile(root):
        return [os.path.basename(root)]
    found = []
    for folder, dirs, names in os.walk(root):
        dirs[:] = [d for d in dirs if not TEMPORARY.fullmatch(d)]
        for name in names:
            if not TEMPORARY.fullmatch(name):
                found.append(os.path.relpath(os.path.join(folder, name), root).replace(os.sep, "/"))
    return sorted(found)


def _sample(count: int, step: dict, keep_part: int = 0) -> list[int]:
    rng = random.Random(step.get("seed"))
    if "percentage" in step:
        chosen = [rng.random() < step["percentage"] for _ in range(count)]
        return [i for i in range(count) if chosen[i] == (keep_part == 0)]
    return [i for i in range(count) if rng.random() < step["probability"]]


def apply_row_steps(items: list, steps) -> list:
    """take/skip/samples/splits over rows or files, in order (seeded: the same definition, the same rows)."""
    for step in steps:
        (name, arg), = step.items()
        if name == "take":
            items = items[:arg]
        elif name == "skip":
            items = items[arg:]
        elif name == "take_random_sample":
            items = [items[i] for i in _sample(len(items), arg)]
        elif name == "random_split":
            items = [items[i] for i in _sample(len(items), arg, arg["part"])]
    return items


_DATE_PARTS = {"yyyy": (r"\d{4}", "%Y"), "MM": (r"\d{2}", "%m"), "dd": (r"\d{2}", "%d"), "HH": (r"\d{2}", "%H"),
               "mm": (r"\d{2}", "%M"), "ss": (r"\d{2}", "%S")}


def partition_pattern(partition_format: str):
    """v1's partition_format ('/{Department}/{PartitionDate:yyyy/MM/dd}/data.csv'): (regex matching the end of a
    file's path, {column: strptime format or None})."""
    regex, columns = "", {}
    for literal, name, spec, _ in string.Formatter().parse(partition_format):
        regex += re.escape(literal).replace(r"\*", "[^/]*")  # '*' as in v1's formats ('.../{Key}/*.parquet')
        if name is None:
            continue
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_ ]*", name) or name in columns:
            raise ValueError(f"partition_format {partition_format!r}: {{{name}}} is not a usable column name.")
        if spec:
            parts = re.split(r"(yyyy|MM|dd|HH|mm|ss)", spec)
            regex += f"(?P<c{len(columns)}>" + "".join(_DATE_PARTS[p][0] if p in _DATE_PARTS else re.escape(p)
                                                         for p in parts) + ")"
            columns[name] = "".join(_DATE_PARTS[p][1] if p in _DATE_PARTS else p for p in parts)
        else:
            regex += f"(?P<c{len(columns)}>[^/]+)"
            columns[name] = None
    return re.compile(regex + "$"), columns


def partition_values(partition_format: str, full_path: str) -> dict:
    """{column: value} that ``full_path`` ('/dir/.../file') holds for ``partition_format``."""
    regex, columns = partition_pattern(partition_format)
    match = regex.search("/" + full_path.lstrip("/"))
    if match is None:
        raise ValueError(f"File {full_path} does not match partition_format {partition_format!r}.")
    return {name: datetime.datetime.strptime(match[f"c{i}"], fmt) if fmt else match[f"c{i}"]
            for i, (name, fmt) in enumerate(columns.items())}


_COMPARE = {"==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
            "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b}


def _comparable(found, value):
    """Folder values are text unless the definition types them: compare text as the constant's type."""
    if isinstance(found, str) and not isinstance(value, str) and value is not None:
        try:
            return type(value)(found) if not isinstance(value, bool) else found.lower() == "true"
        except ValueError:
            return found
    return found


def evaluate(tree: dict, row: dict) -> bool:
    """A filter step's expression ({"op", "column", "value"} or {"op": and|or|not, "args"}) on one row/file."""
    op = tree["op"]
    if op == "and":
        return all(evaluate(t, row) for t in tree["args"])
    if op == "or":
        return any(evaluate(t, row) for t in tree["args"])
    if op == "not":
        return not evaluate(tree["args"][0], row)
    if tree["column"] not in row:
        raise ValueError(f"filter: column {tree['column']!r} is not one of {sorted(row)}.")
    found, value = _comparable(row[tree["column"]], tree["value"]), tree["value"]
    try:
        return bool(_COMPARE[op](found, value))
    except TypeError:
        return False  # v1: a value of another type never matches


def filtered_files(definition: dict, items: list, full_path) -> list:
    """File items kept by the definition's filter steps, evaluated on each file's partition values (file
    datasets have no rows: their filters may only name partition columns)."""
    steps = [s["filter"] for s in definition.get("transformations", []) if "filter" in s]
    if not steps:
        return items
    found = partition_format_of(definition)
    if not found:
        raise ValueError("filter on a file dataset works on partition columns only; this dataset has no "
                         "partition_format (Dataset.File.from_files(path, partition_format='/{key}/*.csv')).")
    kept = []
    for item in items:
        values = typed_partition_values(definition, partition_values(found, full_path(item)))
        if all(evaluate(tree, values) for tree in steps):
            kept.append(item)
    return kept


def typed_partition_values(definition: dict, values: dict) -> dict:
    """``values`` (from partition_values) with the int/float column types the definition gives those columns
    (partition_by keeps the keys' types), as v1 reported partition key values."""
    convert = {c: {"int": int, "float": float}.get(step["column_type"])
               for t in definition.get("transformations", []) for step in t.get("convert_column_types", ())
               for c in step["columns"] if isinstance(step["column_type"], str)}
    return {k: convert[k](v) if convert.get(k) else v for k, v in values.items()}


def partition_format_of(definition: dict):
    for step in definition.get("transformations", []):
        if "extract_columns_from_partition_format" in step:
            return step["extract_columns_from_partition_format"]["partition_format"]
    return None


def _reader_step(definition: dict) -> tuple[str, dict]:
    for step in definition.get("transformations", []):
        (name, arg), = step.items()
        if name in READERS:
            return name, arg
    raise ValueError("The dataset has no read step (read_delimited, read_parquet or read_json_lines).")


def _read_file(pandas, reader: str, options: dict, path: str):
    if reader == "read_parquet":
        return pandas.read_parquet(path)
    encoding = options.get("encoding") or "utf-8"
    if reader == "read_json_lines":
        return pandas.read_json(path, lines=True, encoding=encoding, dtype=options.get("infer_column_types", True))
    header = options.get("header", "all_files_same_headers")
    frame = pandas.read_csv(
        path, sep=options.get("delimiter", ","), encoding=encoding, skiprows=options.get("skip_rows") or 0,
        header=None if header == "no_header" else 0, comment=options.get("comment"),
        dtype=None if options.get("infer_column_types", True) else str)
    if header == "no_header":
        frame.columns = [f"Column{i + 1}" for i in range(len(frame.columns))]  # v1's names for headerless files
    return frame


_CONVERTERS = {
    "string": lambda s, _: s.astype("string").astype(object),
    "int": lambda s, _: s.astype("Int64"),
    "float": lambda s, opts: s.astype(str).str.replace(opts.get("decimal_mark", "."), ".", regex=False).astype(float)
    if opts.get("decimal_mark", ".") != "." else s.astype(float),
    "boolean": lambda s, opts: s.map(lambda v: _to_bool(v, opts)),
}


def _to_bool(value, opts):
    text = str(value).strip()
    if text in (opts.get("true_values") or ["True", "true", "1"]):
        return True
    if text in (opts.get("false_values") or ["False", "false", "0"]):
        return False
    return None


def read_table(definition: dict, files: list[tuple[str, str]]):
    """The pandas DataFrame for a tabular definition over ``files`` ((local path, relative path) pairs)."""
    try:
        import pandas
    except ImportError:
        raise ImportError("to_pandas_dataframe() needs pandas (and pyarrow for parquet): "
                          "pip install 'acpt-estimator[data]'") from None
    reader, options = _reader_step(definition)
    frames, partition_format = [], partition_format_of(definition)
    for path, rel, *full in files:
        frame = _read_file(pandas, reader, options, path)
        if options.get("include_path_column"):
            frame.insert(0, "Path", "/" + rel)
        if partition_format:  # columns from the file's path, matched against its datastore path when known
            for column, value in partition_values(partition_format, full[0] if full else path).items():
                frame[column] = value
        frames.append(frame)
    frame = pandas.concat(frames, ignore_index=True) if frames else pandas.DataFrame()
    pending = []  # row steps run together, in order, before the next column step and at the end
    for step in definition.get("transformations", []):
        (name, arg), = step.items()
        if name in ROW_STEPS:
            pending.append(step)
            continue
        frame, pending = frame.iloc[apply_row_steps(list(range(len(frame))), pending)].reset_index(drop=True), []
        if name == "keep_columns":
            frame = frame[[c for c in arg if c in frame.columns]]
        elif name == "drop_columns":
            frame = frame.drop(columns=[c for c in arg if c in frame.columns])
        elif name == "convert_column_types":
            for item in arg:
                for column in item["columns"]:
                    frame[column] = _convert(pandas, frame[column], item)
        elif name == "time_filter":
            frame = _time_filter(pandas, frame, arg)
        elif name == "filter":
            keep = [evaluate(arg, row) for row in frame.to_dict("records")]
            frame = frame[pandas.Series(keep, index=frame.index, dtype=bool)].reset_index(drop=True)
    frame = frame.iloc[apply_row_steps(list(range(len(frame))), pending)].reset_index(drop=True)
    return frame


def _time_filter(pandas, frame, arg: dict):
    """Rows whose timestamp column is after ``start`` and/or before ``end`` (boundaries included if asked)."""
    if arg["column"] not in frame.columns:
        raise ValueError(f"Timestamp column {arg['column']!r} is not a column of the data ({list(frame.columns)}).")
    stamps = pandas.to_datetime(frame[arg["column"]], errors="coerce")
    keep = stamps.notna()
    inclusive = arg.get("include_boundary", True)
    if arg.get("start"):
        start = pandas.Timestamp(arg["start"])
        keep &= (stamps >= start) if inclusive else (stamps > start)
    if arg.get("end"):
        end = pandas.Timestamp(arg["end"])
        keep &= (stamps <= end) if inclusive else (stamps < end)
    return frame[keep.to_numpy()].reset_index(drop=True)


def _convert(pandas, series, item):
    kind = item["column_type"]
    if isinstance(kind, dict):  # {"datetime": {"formats": [...]}}
        formats = (kind.get("datetime") or {}).get("formats") or [None]
        for fmt in formats:
            converted = pandas.to_datetime(series, format=fmt, errors="coerce")
            if converted.notna().any() or fmt == formats[-1]:
                return converted
    return _CONVERTERS[kind](series, item)


# ---- inside a job --------------------------------------------------------------------------------------------
class JobTabularDataset:
    """A tabular input inside a v2 job without acpt-estimator: what v1 scripts call on ``input_datasets[name]``."""

    def __init__(self, name: str, path: str, definition: dict):
        self.name, self.path, self._definition = name, path, definition

    def to_pandas_dataframe(self, on_error="null", out_of_range_datetime="null"):
        root = self._definition.get("root") or ""
        files = files_in(self.path, self._definition.get("paths") or [""])
        return read_table(self._definition, [(path, rel, root + job_relative(self.path, path)) for path, rel in files])


class JobFileDataset:
    """A file dataset given directly (no as_mount()) inside a v2 job without acpt-estimator: v1's FileDataset calls."""

    def __init__(self, name: str, path: str, definition: dict):
        self.name, self.path, self._definition = name, path, definition

    def _files(self) -> list:
        files = sorted(files_in(self.path, self._definition.get("paths") or [""]), key=lambda item: item[1])
        root = self._definition.get("root") or ""
        files = filtered_files(self._definition, files, lambda item: root + job_relative(self.path, item[0]))
        return apply_row_steps(files, self._definition.get("transformations", []))

    def to_path(self) -> list:
        return ["/" + rel for _, rel in self._files()]

    def download(self, target_path=None, overwrite=False, ignore_not_found=False) -> list:
        import shutil
        import tempfile

        target = os.path.abspath(target_path) if target_path else tempfile.mkdtemp(prefix="dataset-")
        copied = []
        for path, rel in self._files():
            dest = os.path.join(target, *rel.split("/"))
            if os.path.exists(dest) and not overwrite:
                raise FileExistsError(f"download: {dest} already exists; pass overwrite=True.")
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            shutil.copyfile(path, dest)
            copied.append(dest)
        return copied


def job_dataset(name: str, path: str, definition: dict):
    """v1's value of a dataset input in a job: the dataset for tabular and direct inputs, else the path."""
    if definition.get("type") == "tabular":
        return JobTabularDataset(name, path, definition)
    if definition.get("mode") == "direct":
        return JobFileDataset(name, path, definition)
    return path


def job_relative(input_path: str, path: str) -> str:
    """A file's path relative to the job input it came with ('/'-separated)."""
    if os.path.isfile(input_path):
        return os.path.basename(input_path)
    return os.path.relpath(path, input_path).replace(os.sep, "/")


def files_in(root: str, patterns) -> list[tuple[str, str]]:
    """(local path, relative path) of the files under ``root`` (a folder or one file) that ``patterns`` name."""
    if os.path.isfile(root):
        return [(root, os.path.basename(root))]
    found = {}
    for pattern in patterns:
        for rel, shown in select(local_files(root), pattern):
            found.setdefault(os.path.join(root, rel), shown)
    return list(found.items())


def job_definitions(environ=None) -> dict:
    """{input name: definition} of the dataset inputs the job was given (set by both backends)."""
    environ = os.environ if environ is None else environ
    return {k[len(DEFINITION_VAR):]: json.loads(v) for k, v in environ.items() if k.startswith(DEFINITION_VAR)}
