"""Shim for ``azureml.telemetry.contracts``: re-exports ``acpt_estimator.v1.telemetry.contracts``."""
from acpt_estimator.v1.telemetry.contracts import *  # noqa: F401,F403
from acpt_estimator.v1.telemetry.contracts import __all__  # noqa: F401
