"""Published pipelines and pipeline endpoints in the local store: ``<home>/published/<id>.json`` and
``<home>/pipeline_endpoints/<name>.json``; a published pipeline is its PipelineSpec, submitted again on request."""

from __future__ import annotations

import json
import os
import time
import uuid

from ...exceptions import UserErrorException
from ...pipelines import codec


def _folder(kind: str, store_home: str | None = None) -> str:
    from .store import home

    path = os.path.join(store_home or home(), kind)
    os.makedirs(path, exist_ok=True)
    return path


def _write(path: str, record: dict) -> None:
    from .store import write_json

    write_json(path, record)


def _read(path: str) -> dict | None:
    try:
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)
    except (OSError, ValueError):
        return None


def publish(spec, name, description, version, continue_on_step_failure, store_home=None) -> dict:
    """Keep ``spec`` under a new id; returns the record (id, name, version, status, ...)."""
    record = {"id": str(uuid.uuid4()), "name": name, "description": description, "version": version,
              "status": "Active", "continueOnStepFailure": bool(continue_on_step_failure),
              "createdTime": time.time(), "totalRunSteps": len(spec.steps),
              "stepNames": [s.display_name for s in spec.steps], "spec": codec.encode(spec)}
    _write(os.path.join(_folder("published", store_home), record["id"] + ".json"), record)
    return record


def get(published_id: str, store_home=None) -> dict:
    record = _read(os.path.join(_folder("published", store_home), f"{published_id}.json")) \
        if "/" not in published_id and published_id not in ("", ".", "..") else None
    if record is None:
        raise UserErrorException(f"No published pipeline with id {published_id!r} in the local store; list them with "
                                 "PublishedPipeline.list(ws).")
    return record


def all_published(store_home=None) -> list:
    folder = _folder("published", store_home)
    records = [_read(os.path.join(folder, n)) for n in sorted(os.listdir(folder)) if n.endswith(".json")]
    return sorted((r for r in records if r), key=lambda r: r["createdTime"])


def set_status(published_id: str, status: str, store_home=None) -> dict:
    record = get(published_id, store_home)
    record["status"] = status
    _write(os.path.join(_folder("published", store_home), f"{published_id}.json"), record)
    return record


def spec_of(record: dict):
    return codec.decode(record["spec"])


# ---- pipeline endpoints: a name over versions of published pipelines, one of them the default ----------------
def endpoint_path(name: str, store_home=None) -> str:
    from ...names import check

    check("experiment", name, parameter="name")  # a folder-safe name, as experiments
    return os.path.join(_folder("pipeline_endpoints", store_home), f"{name}.json")


def get_endpoint(name: str, store_home=None) -> dict | None:
    return _read(endpoint_path(name, store_home))


def save_endpoint(record: dict, store_home=None) -> None:
    _write(endpoint_path(record["name"], store_home), record)


def all_endpoints(store_home=None) -> list:
    folder = _folder("pipeline_endpoints", store_home)
    return [r for r in (_read(os.path.join(folder, n)) for n in sorted(os.listdir(folder)) if n.endswith(".json"))
            if r]
