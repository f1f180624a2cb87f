"""v1 ``azureml.telemetry.logging_handler``: Application Insights handlers, which drop every record here."""

import logging

__all__ = ["AppInsightsLoggingHandler", "FAILURE", "SUCCESS", "TRACEBACK_LOOKUP_STR", "get_appinsights_log_handler",
           "reformat_traceback"]
SUCCESS, FAILURE = True, False
TRACEBACK_LOOKUP_STR = "Traceback (most recent call last)"
reformat_traceback = True


class AppInsightsLoggingHandler(logging.NullHandler):
    """v1 sent records to Application Insights; this handler accepts v1's arguments and drops them (no telemetry)."""

    def __init__(self, instrumentation_key=None, logger=None, sender=None, *args, **kwargs):
        super().__init__()


def get_appinsights_log_handler(instrumentation_key=None, logger=None, *args, **kwargs):
    return AppInsightsLoggingHandler(instrumentation_key, logger)
