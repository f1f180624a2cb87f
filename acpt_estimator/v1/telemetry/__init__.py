"""v1 ``azureml.telemetry``: accepted so drivers run; acpt-estimator collects and sends no telemetry."""

from __future__ import annotations

import logging
import threading

from acpt_estimator._lazy import lazy_names
from acpt_estimator.exceptions import UserErrorException
from acpt_estimator.v1.telemetry import _user_agent as user_agent  # noqa: F401 - v1 exported it under this name

_log = logging.getLogger(__name__)  # not "logger": v1 has a submodule of that name
# v1's module constants (values kept; the instrumentation key is v1's public one and nothing is sent with it).
AML_INTERNAL_LOGGER_NAMESPACE = "azureml.telemetry"
INSTRUMENTATION_KEY = "71b954a8-6b7d-43f5-986c-3d3a6605d803"
LOGGER_NAME = "ApplicationInsightLogger"
SEND_DIAGNOSTICS_KEY, DIAGNOSTICS_VERBOSITY_KEY = "send_diagnostics", "diagnostics_verbosity"
global_diagnostics_properties = {}  # what set/add_diagnostics_properties hold (kept in this process only)
write_lock = threading.Lock()
_state = {"said": False, "properties": global_diagnostics_properties}


def set_diagnostics_collection(send_diagnostics=True, verbosity=logging.INFO, reason="", path=None):
    """Does nothing (nothing is ever sent); says so once at debug level."""
    from acpt_estimator.v1 import _params

    _params.check("set_diagnostics_collection", verbosity=verbosity, reason=reason, path=path)
    if not _state["said"]:
        _state["said"] = True
        _log.debug("set_diagnostics_collection(send_diagnostics=%r) ignored: acpt-estimator sends no telemetry.",
                     send_diagnostics)


def get_diagnostics_collection_info(component_name=None, path=None, proceed_in_hbi_mode=False):
    """v1's ``(send_diagnostics, verbosity)``: always ``(False, ...)`` here, whatever was set."""
    from acpt_estimator.v1 import _params

    _params.check("get_diagnostics_collection_info", component_name=component_name, path=path,
                  proceed_in_hbi_mode=proceed_in_hbi_mode)
    return False, logging.NOTSET


def is_diagnostics_collection_info_available():
    """The answer above is always known."""
    return True


def set_diagnostics_properties(properties):
    """Kept in this process only (v1 attached them to telemetry events, which are never sent here)."""
    _check_properties(properties)
    _state["properties"].clear()
    _state["properties"].update(properties)


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
        _log.debug("telemetry event (not sent): %r", telemetry_event)

    def flush(self):
        return None


def get_event_logger(*args, **kwargs):
    return _LocalEventLogger()


def get_telemetry_log_handler(instrumentation_key=None, component_name=None, path=None, proceed_in_hbi_mode=False):
    """A handler that drops records: v1's sent them to Application Insights, which nothing here contacts."""
    from acpt_estimator.v1 import _params

    _params.check("get_telemetry_log_handler", instrumentation_key=instrumentation_key, component_name=component_name,
                  path=path, proceed_in_hbi_mode=proceed_in_hbi_mode)
    return logging.NullHandler()


__all__ = sorted(["UserErrorException", "add_diagnostics_properties", "get_diagnostics_collection_info",
                  "get_event_logger", "get_telemetry_log_handler", "is_diagnostics_collection_info_available",
                  "set_diagnostics_collection", "set_diagnostics_properties"])


# v1 names this module also exported, defined elsewhere: resolved on first use (v1-importable.json).
__getattr__, __dir__ = lazy_names(__name__, {
    "HBI_MODE": "acpt_estimator.v1.telemetry.logger",
})
