"""v1 ``azureml.telemetry``: accepted so drivers run; acpt-estimator collects and sends no telemetry."""

from __future__ import annotations

import logging

from acpt_estimator.exceptions import UserErrorException

logger = logging.getLogger(__name__)
_state = {"said": False, "properties": {}}


def set_diagnostics_collection(send_diagnostics=True, verbosity=logging.INFO, reason="", path=None):
    """Does nothing (nothing is ever sent); says so once at debug level."""
    if not _state["said"]:
        _state["said"] = True
        logger.debug("set_diagnostics_collection(send_diagnostics=%r) ignored: acpt-estimator sends no telemetry.",
                     send_diagnostics)


def get_diagnostics_collection_info(component_name=None, path=None, proceed_in_hbi_mode=False):
    """v1's ``(send_diagnostics, verbosity)``: always ``(False, ...)`` here, whatever was set."""
    return False, logging.NOTSET


def is_diagnostics_collection_info_available():
    """The answer above is always known."""
    return True


def set_diagnostics_properties(properties):
    """Kept in this process only (v1 attached them to telemetry events, which are never sent here)."""
    _check_properties(properties)
    _state["properties"] = dict(properties)


def add_diagnostics_properties(properties):
    _check_properties(properties)
    _state["properties"].update(properties)


def _check_properties(properties) -> None:
    if not isinstance(properties, dict):
        raise UserErrorException(f"properties={properties!r} must be a dict of names to values, e.g. "
                                 "{'component': 'train'}.")


class _LocalEventLogger:
    """What ``get_event_logger`` returns: events go to this module's logger at debug level, nowhere else."""

    def log_event(self, telemetry_event, white_listed_properties=None):
        logger.debug("telemetry event (not sent): %r", telemetry_event)

    def flush(self):
        return None


def get_event_logger(*args, **kwargs):
    return _LocalEventLogger()


def get_telemetry_log_handler(instrumentation_key=None, component_name=None, path=None, proceed_in_hbi_mode=False):
    """A handler that drops records: v1's sent them to Application Insights, which nothing here contacts."""
    return logging.NullHandler()


__all__ = sorted(["UserErrorException", "add_diagnostics_properties", "get_diagnostics_collection_info",
                  "get_event_logger", "get_telemetry_log_handler", "is_diagnostics_collection_info_available",
                  "set_diagnostics_collection", "set_diagnostics_properties"])
