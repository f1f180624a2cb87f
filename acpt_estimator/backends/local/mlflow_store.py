"""MLflow metric keys for v1 names, and reading runs written before the SQLite store (MLflow's file-store layout).

Local runs now go to MLflow's SQLite store (``mlflow_sqlite``); stores written before keep their ``mlruns/``
folder, whose metrics a reopened old run still reads here (plain files: no ``import mlflow``).
"""

from __future__ import annotations

import os
import re

from .store import mlruns_folder

_UNSAFE = re.compile(r"[^\w\-. :/]")


def safe_key(name) -> str:
    """MLflow keys allow letters, digits, _ - . space : / only; v1 names may hold anything."""
    key = _UNSAFE.sub("_", str(name)).replace("..", "_").strip("/ ")
    return key or "_"


def run_folder(store_home: str, exp_id: str, run_id: str) -> str:
    """An old run's folder in the file store (``mlruns/<experiment id>/<run id>``)."""
    return os.path.join(mlruns_folder(store_home), exp_id, run_id)


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
