"""PipelineSpec <-> JSON, for published pipelines kept in the local store (only the spec classes are decoded)."""

from __future__ import annotations

import importlib
from types import MappingProxyType

import attrs

# The modules whose attrs classes a stored spec may name; nothing else is ever constructed from a file.
_MODULES = ("acpt_estimator.spec", "acpt_estimator.pipelines.spec")


def encode(value):
    if attrs.has(type(value)):
        fields = {f.name: encode(getattr(value, f.name)) for f in attrs.fields(type(value))}
        return {"__spec__": f"{type(value).__module__}:{type(value).__qualname__}", **fields}
    if isinstance(value, (MappingProxyType, dict)):
        return {"__map__": [[encode(k), encode(v)] for k, v in value.items()]}
    if isinstance(value, (tuple, list)):
        return {"__tuple__": [encode(v) for v in value]}
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    raise TypeError(f"{type(value).__name__} cannot be stored with a published pipeline: {value!r}")


def decode(data):
    if isinstance(data, dict) and "__spec__" in data:
        module, _, name = data["__spec__"].partition(":")
        if module not in _MODULES:
            raise ValueError(f"A stored pipeline names {data['__spec__']}, which is not a pipeline spec class.")
        cls = getattr(importlib.import_module(module), name)
        if not attrs.has(cls):
            raise ValueError(f"{data['__spec__']} is not a spec class.")
        return cls(**{k: decode(v) for k, v in data.items() if k != "__spec__"})
    if isinstance(data, dict) and "__map__" in data:
        return {decode(k): decode(v) for k, v in data["__map__"]}
    if isinstance(data, dict) and "__tuple__" in data:
        return tuple(decode(v) for v in data["__tuple__"])
    return data
