"""Whether a workspace is served locally: the one rule the services and the backends' doors share."""

from __future__ import annotations


def is_local(workspace) -> bool:
    """Local when there is no workspace, or it is offline: local-only, local runs forced, or ``convert`` capturing
    (nothing may reach Azure then)."""
    return workspace is None or bool(getattr(workspace, "_offline", True))
