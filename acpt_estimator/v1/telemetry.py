"""v1 ``azureml.telemetry``: accepted so drivers run; acpt-estimator collects no telemetry."""

from __future__ import annotations

import logging

logger = logging.getLogger(__name__)
_said = False


def set_diagnostics_collection(send_diagnostics=True, verbosity=None, reset=False, path=None):
    """Does nothing; says so once at debug level."""
    global _said
    if not _said:
        _said = True
        logger.debug("set_diagnostics_collection(send_diagnostics=%r) ignored: acpt-estimator sends no telemetry.",
                     send_diagnostics)
