"""Step reuse (v1 ``allow_reuse``): a key over what decides a step's result, and the local record of results."""

from __future__ import annotations

import hashlib
import json
import os

import attrs

from ..snapshot import snapshot_files


def snapshot_digest(source_directory: str) -> str:
    """sha256 over the snapshot's file names and contents (the files a job would see)."""
    digest = hashlib.sha256()
    for name in snapshot_files(source_directory):
        digest.update(name.encode() + b"\0")
        with open(os.path.join(source_directory, name), "rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
        digest.update(b"\0")
    return digest.hexdigest()


def reuse_key(job, upstream: dict, settings=None) -> str:
    """What v1 compared: script snapshot, arguments, inputs (and which run wrote linked ones), environment,
    distribution and compute. ``upstream`` maps each linked input name to the producer's result (run id/output);
    ``settings``: the step kind's own (a sweep's search), when it has any."""
    fields = attrs.asdict(job, recurse=True, value_serializer=lambda _, __, v: dict(v) if hasattr(v, "keys") else v)
    for volatile in ("experiment_name", "display_name", "tags", "source_directory"):
        fields.pop(volatile, None)
    fields["snapshot"] = snapshot_digest(job.source_directory)
    fields["upstream"] = upstream
    if settings is not None:
        from .codec import encode

        fields["settings"] = encode(settings)
    text = json.dumps(fields, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def _record_path(store_home: str, key: str) -> str:
    return os.path.join(store_home, "pipeline_reuse", key[:2], key + ".json")


def lookup(store_home: str, key: str) -> dict | None:
    """The earlier completed result for ``key`` ({runId, outputs}), or None."""
    try:
        with open(_record_path(store_home, key), encoding="utf-8") as handle:
            found = json.load(handle)
    except (OSError, ValueError):
        return None
    if not all(os.path.exists(path) for path in found.get("outputs", {}).values()):
        return None  # its outputs were removed: run again (a sweep's metrics output is one file, as v1's)
    return found


def remember(store_home: str, key: str, run_id: str, outputs: dict) -> None:
    from ..backends.local.store import write_json

    path = _record_path(store_home, key)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    write_json(path, {"runId": run_id, "outputs": outputs})
