"""v1 ``azureml.telemetry.logger``: telemetry event loggers; refuse on use (acpt-estimator sends no telemetry)."""

import os

from acpt_estimator.v1._no_equivalent import define

# v1: whether this process runs a job of a high-business-impact workspace (then v1 scrubbed its telemetry).
HBI_MODE = os.getenv("HBI_WORKSPACE_JOB", "false").lower() != "false"
__all__ = sorted(define(globals()) + ["HBI_MODE"])
