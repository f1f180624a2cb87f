"""Shim for ``azureml.telemetry.activity``: re-exports ``acpt_estimator.v1.telemetry.activity``."""
from acpt_estimator.v1.telemetry.activity import *  # noqa: F401,F403
from acpt_estimator.v1.telemetry.activity import __all__  # noqa: F401
