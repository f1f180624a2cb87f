"""Local schedules of published pipelines in the store: ``<home>/schedules/<id>.json``."""

from __future__ import annotations

import os
import time
import uuid

from ...exceptions import UserErrorException
from . import published


def _folder(store_home=None) -> str:
    return published._folder("schedules", store_home)


def create(record: dict, store_home=None) -> dict:
    record = dict(record, id=str(uuid.uuid4()), status="Active", createdTime=time.time(), lastFired=None, runs=[])
    published._write(os.path.join(_folder(store_home), record["id"] + ".json"), record)
    return record


def get(schedule_id: str, store_home=None) -> dict:
    record = published._read(os.path.join(_folder(store_home), f"{schedule_id}.json")) \
        if "/" not in schedule_id and schedule_id not in ("", ".", "..") else None
    if record is None:
        raise UserErrorException(f"No schedule with id {schedule_id!r} in the local store; list them with "
                                 "Schedule.list(ws).")
    return record


def save(record: dict, store_home=None) -> None:
    published._write(os.path.join(_folder(store_home), record["id"] + ".json"), record)


def all_schedules(store_home=None) -> list:
    folder = _folder(store_home)
    records = [published._read(os.path.join(folder, n)) for n in sorted(os.listdir(folder)) if n.endswith(".json")]
    return sorted((r for r in records if r), key=lambda r: r["createdTime"])


def published_for(record: dict, store_home=None) -> dict:
    """The published pipeline a schedule submits (an endpoint's default version when it names an endpoint)."""
    if record.get("pipelineEndpoint"):
        endpoint = published.get_endpoint(record["pipelineEndpoint"], store_home)
        if endpoint is None:
            raise UserErrorException(f"Schedule {record['name']!r}: pipeline endpoint {record['pipelineEndpoint']!r} "
                                     "no longer exists.")
        return published.get(endpoint["versions"][endpoint["defaultVersion"]], store_home)
    return published.get(record["pipelineId"], store_home)
