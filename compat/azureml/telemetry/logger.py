"""Shim for ``azureml.telemetry.logger``: re-exports ``acpt_estimator.v1.telemetry.logger``."""
from acpt_estimator.v1.telemetry.logger import *  # noqa: F401,F403
from acpt_estimator.v1.telemetry.logger import __all__  # noqa: F401
