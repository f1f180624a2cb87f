"""Shim for ``azureml.telemetry.loggers``: re-exports ``acpt_estimator.v1.telemetry.loggers``."""
from acpt_estimator.v1.telemetry.loggers import *  # noqa: F401,F403
from acpt_estimator.v1.telemetry.loggers import __all__  # noqa: F401
