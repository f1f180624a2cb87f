"""v1 ``azureml.telemetry.log_scope``: telemetry scopes; refuse on use (acpt-estimator sends no telemetry)."""

from acpt_estimator.v1 import telemetry  # noqa: F401 - v1's module exported the telemetry package under this name
from acpt_estimator.v1._no_equivalent import define

__all__ = sorted(define(globals()) + ["telemetry"])
