"""Shim for ``azureml.data``: re-exports ``acpt_estimator.v1.data`` (names resolve on first use)."""
from acpt_estimator.v1.data import __all__, __dir__, __getattr__  # noqa: F401
