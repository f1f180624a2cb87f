"""Which backend a submission goes to: the compute target, or an override that forces local runs."""

from __future__ import annotations

import os

TARGET_VAR = "ACPT_ESTIMATOR_TARGET"
CAPTURE_VAR = "ACPT_ESTIMATOR_CAPTURE_DIR"
_forced: str | None = None


def force_target(target: str | None) -> None:
    """``force_target('local')`` runs every submission on this machine (same as ACPT_ESTIMATOR_TARGET=local)."""
    global _forced
    if target not in (None, "local", "cloud"):
        raise ValueError(f"force_target({target!r}): use 'local', 'cloud' or None (follow compute_target).")
    _forced = target


def forced_target() -> str | None:
    value = _forced or os.environ.get(TARGET_VAR) or None
    if value not in (None, "local", "cloud"):
        raise ValueError(f"{TARGET_VAR}={value!r} is not understood; set it to 'local' or 'cloud', or unset it.")
    return value


def local_mode() -> bool:
    """True when v1 calls that would reach Azure must instead work offline (local runs forced)."""
    return forced_target() == "local"


def offline_mode() -> bool:
    """True when nothing may reach Azure: local runs forced, or submissions captured by ``convert``."""
    return local_mode() or capture_dir() is not None


def capture_dir() -> str | None:
    """Set by ``acpt-estimator convert``: submissions are written as v2 YAML instead of sent."""
    return os.environ.get(CAPTURE_VAR) or None


def backend_for(compute_target: str | None) -> str:
    """'capture', 'local' or 'cloud' for a job whose compute target is ``compute_target``."""
    if capture_dir():
        return "capture"
    forced = forced_target()
    if forced:
        return forced
    return "local" if compute_target == "local" else "cloud"
