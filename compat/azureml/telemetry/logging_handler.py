"""Shim for ``azureml.telemetry.logging_handler``: re-exports ``acpt_estimator.v1.telemetry.logging_handler``."""
from acpt_estimator.v1.telemetry.logging_handler import *  # noqa: F401,F403
from acpt_estimator.v1.telemetry.logging_handler import __all__  # noqa: F401
