"""v1 ``azureml.telemetry.contracts``: telemetry payloads; refuse on use (acpt-estimator sends no telemetry)."""

from acpt_estimator.v1._no_equivalent import define

__all__ = define(globals())
