"""v2 model assets as v1's model records (no azure import: it reads the entity's attributes)."""

from __future__ import annotations

_FRAMEWORK_PROPS = ("model_framework", "model_framework_version")  # v2 models have no framework fields


def model_version(value):
    return int(value) if value not in (None, "") and str(value).isdigit() else value


def model_record(entity) -> dict:
    """A v2 model asset as v1's record; v1's framework fields come back from the properties they were kept in."""
    props = dict(entity.properties or {})
    framework = {k: props.pop(k, None) for k in _FRAMEWORK_PROPS}
    created = getattr(getattr(entity, "creation_context", None), "created_at", None)
    job = getattr(entity, "job_name", None)
    return {"name": entity.name, "version": model_version(entity.version), "path": entity.path, "run_id": job,
            "experiment_name": None, "tags": dict(entity.tags or {}), "properties": props,
            "description": entity.description, "created_time": str(created) if created else None,
            "datasets": {}, **framework}

