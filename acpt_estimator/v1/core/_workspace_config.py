"""Where a v1 ``Workspace`` is configured: ``config.json`` (or ``project.json``) found walking up from a folder,
read like v1 (the three fields, or a ``Scope`` ARM id)."""

from __future__ import annotations

import json
import os
import re

from acpt_estimator.exceptions import UserErrorException

_CONFIG_DIRS = (".azureml", "aml_config", "")
_CONFIG_FILES = ("config.json", "project.json")
_SCOPE = re.compile(r"/subscriptions/(?P<s>[^/]+)/resourceGroups/(?P<rg>[^/]+)/providers/[^/]+/workspaces/(?P<ws>[^/]+)",
                    re.IGNORECASE)


def find_config(path=None, file_name=None):
    """(path, parsed dict) of the nearest config file walking upward, or None."""
    current = os.path.abspath(path or ".")
    names = (file_name,) if file_name else _CONFIG_FILES
    for _ in range(64):
        for folder in _CONFIG_DIRS:
            for name in names:
                candidate = os.path.join(current, folder, name)
                if os.path.isfile(candidate):
                    with open(candidate, encoding="utf-8") as handle:
                        try:
                            return candidate, json.load(handle)
                        except json.JSONDecodeError as err:
                            raise UserErrorException(f"{candidate} is not valid JSON ({err}); download it again "
                                                     "from the Azure ML studio.") from None
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent
    return None


def _parse_config(config: dict, config_path: str):
    if all(config.get(k) for k in ("subscription_id", "resource_group", "workspace_name")):
        return config["subscription_id"], config["resource_group"], config["workspace_name"]
    match = _SCOPE.search(config.get("Scope") or config.get("scope") or "")
    if match:
        return match["s"], match["rg"], match["ws"]
    raise UserErrorException(
        f"{config_path} must contain subscription_id, resource_group and workspace_name (or a Scope ARM id). "
        "Download a fresh config.json from the Azure ML studio's workspace overview.")
