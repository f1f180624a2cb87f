"""Refuse to run beside the real azureml-core: both provide ``azureml.core`` and would half-work together."""

from __future__ import annotations

import functools
import os
import sys

_V1_DISTRIBUTIONS = ("azureml_core", "azureml_train_core")
ALLOW_VAR = "ACPT_ESTIMATOR_ALLOW_AZUREML_CORE"


@functools.lru_cache(maxsize=1)
def installed_v1_distributions() -> tuple[str, ...]:
    """Names of v1 SDK distributions found on sys.path (a directory scan: cheaper than importlib.metadata)."""
    found = []
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        for name in names:
            if name.endswith(".dist-info") and name.lower().split("-", 1)[0] in _V1_DISTRIBUTIONS:
                found.append(name.split("-", 1)[0])
    return tuple(sorted(set(found)))


def check_no_real_azureml_core() -> None:
    if os.environ.get(ALLOW_VAR) == "1":
        return
    found = installed_v1_distributions()
    if found:
        raise ImportError(
            f"acpt-estimator's azureml.* shims and the real Azure ML SDK v1 ({', '.join(found)}) are installed in the "
            "same environment; both provide the azureml.core / azureml.train modules, so neither would work "
            "reliably. Use separate environments, or remove v1: pip uninstall -y azureml-core azureml-train-core "
            "azureml-sdk (then reinstall acpt-estimator). Set ACPT_ESTIMATOR_ALLOW_AZUREML_CORE=1 to bypass this "
            "check at your own risk.")
