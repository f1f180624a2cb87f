"""Recorded exchanges of the real Azure ML service (trimmed excerpts, provenance in recordings.lock.json) and the
comparison of a fake's answer with one: status, JSON key paths and types, paging keys, required/forbidden headers."""

from __future__ import annotations

import json
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
EXCERPTS = os.path.join(HERE, "excerpts")
LOCK = os.path.join(HERE, "recordings.lock.json")
UNVERIFIED = os.path.join(HERE, "UNVERIFIED.md")
PAGING_KEYS = ("value", "nextLink", "continuationToken")


def excerpts() -> list:
    found = []
    for name in sorted(os.listdir(EXCERPTS)):
        with open(os.path.join(EXCERPTS, name), encoding="utf-8") as handle:
            found.append(json.load(handle))
    return found


def excerpt(name: str) -> dict:
    with open(os.path.join(EXCERPTS, f"{name}.json"), encoding="utf-8") as handle:
        return json.load(handle)


def lock() -> dict:
    with open(LOCK, encoding="utf-8") as handle:
        return {entry["id"]: entry for entry in json.load(handle)["recordings"]}


def request_path(recorded: dict, workspace_id: str) -> str:
    return recorded["request"]["path"].replace("{workspace}", workspace_id)


def _kind(value) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, (int, float)):
        return "number"
    return {str: "string", list: "array", dict: "object"}[type(value)]


def key_paths(value, prefix: str = "$", into: dict | None = None) -> dict:
    """{path: {JSON types seen there}}; list items share the path ``<list>[]``."""
    into = {} if into is None else into
    into.setdefault(prefix, set()).add(_kind(value))
    if isinstance(value, dict):
        for key, item in value.items():
            key_paths(item, f"{prefix}.{key}", into)
    elif isinstance(value, list):
        for item in value:
            key_paths(item, f"{prefix}[]", into)
    return into


def differences(recorded: dict, status: int, headers: dict, body) -> list:
    """What the answer does differently from the recording (empty when it conforms)."""
    response = recorded["response"]
    problems = []
    if status != response["status"]:
        problems.append(f"status {status} != recorded {response['status']}")
    lowered = {k.lower(): v for k, v in headers.items()}
    problems += [f"header {h} missing" for h in response.get("required_headers", []) if h.lower() not in lowered]
    problems += [f"header {h} present (the service sends none)" for h in response.get("forbidden_headers", [])
                 if h.lower() in lowered]
    want = response.get("body")
    if isinstance(want, dict):
        if not isinstance(body, dict):
            return problems + [f"body is {_kind(body)}, recorded an object"]
        problems += [f"paging key {k} missing" for k in PAGING_KEYS if k in want and k not in body]
        problems += [f"paging key {k} not recorded" for k in PAGING_KEYS if k in body and k not in want]
        mine, theirs = key_paths(body), key_paths(want)
        for path, kinds in sorted(theirs.items()):
            real = kinds - {"null"}
            if path not in mine:
                if real:
                    problems.append(f"{path} missing (recorded {sorted(real)})")
            elif real and (mine[path] - {"null"}) != real:
                problems.append(f"{path} is {sorted(mine[path])}, recorded {sorted(kinds)}")
        problems += [f"{p} not in the recording" for p in sorted(set(mine) - set(theirs))
                     if not any(re.fullmatch(x, p) for x in response.get("extra_paths_allowed", []))]
    return problems
