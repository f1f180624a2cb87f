"""v1 ``azureml.core.util``: logging helpers (``NewLoggingLevel``, and ``diagnostic_log`` of ``azureml.core``)."""

from __future__ import annotations

import logging
import os
import time

__all__ = ["NewLoggingLevel", "diagnostic_log"]
# What v1's diagnostic_log captured by default (its own SDK and the HTTP layers), plus acpt-estimator's loggers.
_NAMESPACES = ("azureml", "acpt_estimator", "azure", "msrest.http_logger", "urllib3")


class NewLoggingLevel:
    """``with NewLoggingLevel('azureml', logging.WARNING):`` sets a logger's level for the block (v1's helper)."""

    def __init__(self, logger_name, level=logging.WARNING):
        self.logger_name = logger_name
        self.logger = logging.getLogger(logger_name)
        self.old_level = self.logger.level
        self.new_level = level

    def __enter__(self):
        self.logger.setLevel(self.new_level)
        return self.logger

    def __exit__(self, exc_type, exc, tb):
        self.logger.setLevel(self.old_level)


class diagnostic_log:  # noqa: N801 - v1's name
    """``with diagnostic_log('debug.log'):`` writes DEBUG records of the SDK's loggers to a file (v1: azureml.log)."""

    def __init__(self, log_path=None, namespaces=None, context_name=None):
        self._namespaces = tuple(_NAMESPACES if namespaces is None else namespaces)
        self._filename = os.path.abspath(log_path or "azureml.log")
        self._context_name = context_name
        self._handler = None
        self._levels = {}

    def start_capture(self):
        if self._handler is not None:
            logging.getLogger(__name__).warning("Debug logs are already enabled at %s", self._filename)
            return
        formatter = logging.Formatter("%(asctime)s|%(name)s|%(levelname)s|%(message)s")
        formatter.converter = time.gmtime
        self._handler = logging.FileHandler(self._filename, encoding="utf-8")
        self._handler.setLevel(logging.DEBUG)
        self._handler.setFormatter(formatter)
        print(f"Debug logs are being sent to {self._filename}")
        for namespace in self._namespaces:
            logger = logging.getLogger(namespace)
            self._levels[namespace] = logger.level
            logger.setLevel(logging.DEBUG)
            logger.addHandler(self._handler)

    def stop_capture(self):
        if self._handler is None:
            return
        for namespace, level in self._levels.items():
            logger = logging.getLogger(namespace)
            logger.removeHandler(self._handler)
            logger.setLevel(level)
        self._handler.close()
        self._handler, self._levels = None, {}
        print(f"Disabling log capture. Resulting file is at {self._filename}")

    def __enter__(self):
        self.start_capture()
        return self

    def __exit__(self, exc_type, exc, tb):
        self.stop_capture()
