"""v1 ``azureml.telemetry.loggers``: the telemetry logger registry; refuses on use (nothing is sent)."""

import threading

from acpt_estimator.v1._no_equivalent import define

mutex = threading.Lock()
__all__ = sorted(define(globals()) + ["mutex"])
