"""The package's cache folder on this machine: what it builds once (the Horovod wheel, the cgroup spawn helper)."""

from __future__ import annotations

import os

CACHE_VAR = "ACPT_ESTIMATOR_CACHE"


def cache_base() -> str:
    """``$ACPT_ESTIMATOR_CACHE``, else ``$XDG_CACHE_HOME/acpt-estimator`` (``~/.cache/acpt-estimator``)."""
    return os.environ.get(CACHE_VAR) or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "acpt-estimator")


def only_mine(path: str) -> bool:
    """Whether ``path`` and its folder belong to this user and nobody else can write them: what the cache holds is
    used with the driver's rights (a helper it runs, what a launcher said it is)."""
    try:
        for item in (path, os.path.dirname(path)):
            status = os.stat(item)
            if status.st_uid != os.geteuid() or status.st_mode & 0o022:
                return False
    except OSError:
        return False
    return True
