"""Shim for ``azureml.telemetry``."""
from acpt_estimator.v1.telemetry import set_diagnostics_collection  # noqa: F401
