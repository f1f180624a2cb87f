"""The mini-batches of a ParallelRunStep: file paths in groups of mini_batch_size, DataFrames of about
mini_batch_size bytes (never across files, as v1), or one mini-batch per partition with partition_keys."""

from __future__ import annotations

import math
import os

import acpt_datasets as datasets  # the job runtime folder is on sys.path (driver.py puts it there)

from .sizes import DEFAULT_BYTES, DEFAULT_FILES


class PlanError(ValueError):
    """The inputs cannot be split as asked (a message for the step's log and job_result.txt)."""


def input_files(path: str, definition: dict) -> list[tuple[str, str, str]]:
    """(local path, relative path, datastore path) of the input's files, sorted, after the dataset's row steps
    for file datasets (tabular row steps apply to rows when read)."""
    root = definition.get("root") or ""
    files = sorted(datasets.files_in(path, definition.get("paths") or [""]), key=lambda item: item[1])
    items = [(local, rel, root + datasets.job_relative(path, local)) for local, rel in files]
    if definition.get("type") != "tabular":  # tabular filters and row steps apply to rows when read
        items = datasets.apply_row_steps(datasets.filtered_files(definition, items, lambda item: item[2]),
                                         definition.get("transformations", []))
    return items


def _groups(name: str, definition: dict, files: list, partition_keys: list) -> list[tuple[dict, list]]:
    """[(partition_key_value, files)] in order of first appearance; PlanError if the keys are not the dataset's."""
    found = datasets.partition_format_of(definition)
    known = list(datasets.partition_pattern(found)[1]) if found else []
    missing = [k for k in partition_keys if k not in known]
    if missing:
        raise PlanError(f"partition_keys {partition_keys} must be partition keys of every input; input {name!r} has "
                        f"{known or 'none'} (missing {missing}). Partition it first: "
                        "dataset.partition_by(partition_keys=[...], target=(datastore, 'folder')).")
    groups: dict = {}
    for item in files:
        values = datasets.typed_partition_values(definition, datasets.partition_values(found, item[2]))
        key = tuple(str(values[k]) for k in partition_keys)
        groups.setdefault(key, ({k: values[k] for k in partition_keys}, []))[1].append(item)
    return list(groups.values())


def _subset(name: str, path: str, definition: dict, files: list) -> dict:
    """The dataset of ``files`` only (mini_batch_context.dataset): the same definition over fewer paths."""
    return {"name": name, "path": path, "definition": dict(definition, paths=[rel for _, rel, _ in files])}


def _frame_chunks(frame, size: int, limit: int) -> list:
    """``frame`` in row ranges of about ``limit`` bytes each (``size``: what the rows weigh on disk)."""
    count = max(1, math.ceil(size / limit)) if len(frame) else 1
    step = max(1, math.ceil(len(frame) / count))
    return [frame.iloc[i:i + step].reset_index(drop=True) for i in range(0, max(len(frame), 1), step)]


def plan(inputs: list[tuple[str, str, dict]], mini_batch_size: int | None, partition_keys: list) -> list[dict]:
    """Every mini-batch of every input, in order: dicts with ``kind``, ``files`` or ``frame``, ``items``,
    ``partition_key_value`` and ``dataset`` (for mini_batch_context)."""
    tasks = []
    for name, path, definition in inputs:
        files = input_files(path, definition)
        tabular = definition.get("type") == "tabular"
        if partition_keys:
            for values, group in _groups(name, definition, files, partition_keys):
                subset = _subset(name, path, definition, group)
                if tabular:
                    frame = datasets.read_table(subset["definition"], group)
                    tasks.append({"kind": "tabular", "frame": frame, "items": len(frame)})
                else:
                    tasks.append({"kind": "file", "files": [f[0] for f in group], "items": len(group)})
                tasks[-1].update(partition_key_value=values, dataset=subset, input=name)
        elif tabular:
            tasks += _tabular(name, path, definition, files, mini_batch_size or DEFAULT_BYTES)
        else:
            count = mini_batch_size or DEFAULT_FILES
            for start in range(0, len(files), count):
                chunk = files[start:start + count]
                tasks.append({"kind": "file", "files": [f[0] for f in chunk], "items": len(chunk), "input": name,
                              "partition_key_value": None, "dataset": _subset(name, path, definition, chunk)})
    for index, task in enumerate(tasks):
        task["index"] = index
    return tasks


def _tabular(name: str, path: str, definition: dict, files: list, limit: int) -> list[dict]:
    """Per file (v1: a mini-batch never crosses files); the whole table when row steps (take, skip, samples)
    select rows across files."""
    steps = [next(iter(s)) for s in definition.get("transformations", [])]
    if any(step in datasets.ROW_STEPS for step in steps):
        parts = [(files, sum(os.path.getsize(f[0]) for f in files))]
    else:
        parts = [([item], os.path.getsize(item[0])) for item in files]
    tasks = []
    for group, size in parts:
        frame = datasets.read_table(definition, group)
        for chunk in _frame_chunks(frame, size, limit):
            tasks.append({"kind": "tabular", "frame": chunk, "items": len(chunk), "input": name,
                          "partition_key_value": None, "dataset": _subset(name, path, definition, group)})
    return tasks
