"""Shim for ``azureml.telemetry``: re-exports ``acpt_estimator.v1.telemetry``."""
from acpt_estimator.v1.telemetry import *  # noqa: F401,F403
from acpt_estimator.v1.telemetry import __all__, __dir__, __getattr__  # noqa: F401
