"""The package's cache folder on this machine: what it builds once (the Horovod wheel, the cgroup spawn helper)."""

from __future__ import annotations

import os

CACHE_VAR = "ACPT_ESTIMATOR_CACHE"


def cache_base() -> str:
    """``$ACPT_ESTIMATOR_CACHE``, else ``$XDG_CACHE_HOME/acpt-estimator`` (``~/.cache/acpt-estimator``)."""
    return os.environ.get(CACHE_VAR) or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "acpt-estimator")
