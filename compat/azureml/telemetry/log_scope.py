"""Shim for ``azureml.telemetry.log_scope``: re-exports ``acpt_estimator.v1.telemetry.log_scope``."""
from acpt_estimator.v1.telemetry.log_scope import *  # noqa: F401,F403
from acpt_estimator.v1.telemetry.log_scope import __all__  # noqa: F401
