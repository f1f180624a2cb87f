"""The util-linux programs local runs start, looked up once per PATH (a PATH walk costs ~0.1 ms of every launch)."""

from __future__ import annotations

import functools
import os
import shutil


def which(name: str) -> str | None:
    """``shutil.which(name)`` for the current PATH, remembered: installing a tool or changing PATH is seen."""
    return _which(name, os.environ.get("PATH"))


@functools.lru_cache(maxsize=64)
def _which(name: str, path: str | None) -> str | None:
    return shutil.which(name, path=path)
