"""Shim for ``azureml.telemetry``."""
from acpt_estimator.telemetry import set_diagnostics_collection  # noqa: F401
