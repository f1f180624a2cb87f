"""Golden files of translations: compare with tests/data/golden/<name>.yml, or rewrite them on request."""

import os

import yaml

GOLDEN = os.path.join(os.path.dirname(__file__), os.pardir, "data", "golden")
REGENERATE = os.environ.get("ACPT_REGENERATE_GOLDEN") == "1"


def check_golden(name: str, data: dict) -> None:
    """``data`` equals tests/data/golden/<name>.yml (rewritten first under ACPT_REGENERATE_GOLDEN=1)."""
    path = os.path.join(GOLDEN, f"{name}.yml")
    if REGENERATE:
        with open(path, "w", encoding="utf-8") as handle:
            yaml.safe_dump(data, handle, sort_keys=False)
    with open(path, encoding="utf-8") as handle:
        assert data == yaml.safe_load(handle), f"regenerate with ACPT_REGENERATE_GOLDEN=1 and review the diff of {path}"
