"""v1 ``azureml.telemetry.activity``: activity logging that goes to the given standard logger only (nothing is sent)."""

from __future__ import annotations

import contextlib
import functools
import logging
import time
import uuid

__all__ = ["ActivityCompletionStatus", "ActivityLoggerAdapter", "ActivityType", "log_activity",
           "monitor_with_activity"]


class ActivityType:
    """v1's kinds of monitored code (values kept)."""

    PUBLICAPI = "PublicApi"
    INTERNALCALL = "InternalCall"
    CLIENTPROXY = "ClientProxy"


class ActivityCompletionStatus:
    SUCCESS = "Success"
    FAILURE = "Failure"


class ActivityLoggerAdapter(logging.LoggerAdapter):
    """A logger adapter that carries the activity's properties in each record's ``properties``."""

    def __init__(self, logger, activity_info):
        super().__init__(logger, {"properties": activity_info})

    @property
    def activity_info(self) -> dict:
        return self.extra["properties"]

    def process(self, msg, kwargs):
        kwargs.setdefault("extra", {}).setdefault("properties", self.activity_info)
        return msg, kwargs


@contextlib.contextmanager
def log_activity(logger, activity_name, activity_type=ActivityType.INTERNALCALL, custom_dimensions=None):
    """Logs the start, end, duration and outcome of a block to ``logger``, as v1 did (and sends nothing)."""
    info = {"activity_id": str(uuid.uuid4()), "activity_name": activity_name, "activity_type": activity_type,
            **(custom_dimensions or {})}
    adapter = ActivityLoggerAdapter(logger, info)
    adapter.info("ActivityStarted, %s", activity_name)
    start, failure = time.monotonic(), None
    try:
        yield adapter
    except Exception as error:
        failure = error
        raise
    finally:
        status = ActivityCompletionStatus.FAILURE if failure else ActivityCompletionStatus.SUCCESS
        duration_ms = round((time.monotonic() - start) * 1000, 2)
        info.update(completionStatus=status, durationMs=duration_ms)
        message = f"ActivityCompleted: Activity={activity_name}, HowEnded={status}, Duration={duration_ms} [ms]"
        if failure:
            adapter.error("%s, Exception=%s", message, type(failure).__name__)
        else:
            adapter.info("%s", message)


def monitor_with_activity(logger, activity_name, activity_type=ActivityType.INTERNALCALL):
    """Decorator form of ``log_activity``."""

    def monitor(function):
        @functools.wraps(function)
        def wrapper(*args, **kwargs):
            with log_activity(logger, activity_name, activity_type):
                return function(*args, **kwargs)

        return wrapper

    return monitor
