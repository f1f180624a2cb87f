"""Local runs use this Python environment: say which of the job's pip packages it lacks, and how to add them."""

from __future__ import annotations

import logging
import re
import shlex

logger = logging.getLogger(__name__)
_NAME = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)")


def missing_packages(requirements) -> list[str]:
    """The requirement strings not satisfied here (name not installed, or a version outside the specifier)."""
    missing = []
    for requirement in requirements:
        text = str(requirement).strip()
        match = _NAME.match(text)
        if not match or text.startswith(("-", "git+", "http")):
            continue  # pip options, URLs: nothing to check offline
        import importlib.metadata  # only here: most jobs list no pip packages, and its import costs ~10 ms
        try:
            installed = importlib.metadata.version(match[1])
        except importlib.metadata.PackageNotFoundError:
            missing.append(text)
            continue
        if not _satisfies(text, installed):
            missing.append(f"{text} (installed: {installed})")
    return missing


def _satisfies(requirement: str, installed: str) -> bool:
    try:
        from packaging.requirements import Requirement
    except ImportError:  # no packaging: the name check above is all we can do
        return True
    try:
        return Requirement(requirement).specifier.contains(installed, prereleases=True)
    except Exception:  # an unparsable line: pip will tell in the cloud; not our call here
        return True


def warn_missing(environment) -> list[str]:
    missing = missing_packages(environment.pip_packages)
    if missing:
        logger.warning(
            "This local run uses the current Python environment, which lacks the job's pip packages %s (in the "
            "cloud they are built into the image). Install them with: pip install %s", missing,
            shlex.join(m.split(" (installed")[0] for m in missing))
    return missing
