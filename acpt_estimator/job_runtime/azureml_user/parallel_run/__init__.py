"""``from azureml_user.parallel_run import EntryScript``: a ParallelRunStep worker's logger and folders, as in v1.

Standard library only. The worker (``acpt_parallel/worker.py``) sets the ``ACPT_PRS_*`` variables before it
imports the entry script; outside a worker, EntryScript still works (logs under ``./logs``), so a script can be
tried on its own.
"""

from __future__ import annotations

import logging
import os

ENV_PREFIX = "ACPT_PRS_"  # LOG_DIR, NODE_ID, AGENT_NAME, OUTPUT_DIR, WORKING_DIR, LOGGING_LEVEL


def _env(name: str, default: str) -> str:
    return os.environ.get(ENV_PREFIX + name) or default


class EntryScript:
    """One per process (v1's singleton): ``logger``, ``log_dir``, ``agent_name``, ``node_id``, ``output_dir``,
    ``working_dir``."""

    _instance = None

    def __new__(cls):
        if cls._instance is None:
            cls._instance = super().__new__(cls)
            cls._instance._logger = None
        return cls._instance

    @property
    def node_id(self) -> str:
        return _env("NODE_ID", "0")

    @property
    def agent_name(self) -> str:
        """The worker's name, ``processNNN`` (v1's log file names)."""
        return _env("AGENT_NAME", "process000")

    @property
    def log_dir(self) -> str:
        """``logs/user/entry_script_log/<node_id>``: where this worker's logger writes (v1's layout)."""
        return os.path.join(_env("LOG_DIR", os.path.abspath("logs")), "user", "entry_script_log", self.node_id)

    @property
    def output_dir(self) -> str:
        """The step's output folder (append_row's file goes there; summary_only scripts write their own)."""
        return _env("OUTPUT_DIR", os.path.abspath("outputs"))

    @property
    def working_dir(self) -> str:
        """A scratch folder shared by the step's workers for the length of the job."""
        return _env("WORKING_DIR", os.getcwd())

    @property
    def logger(self) -> logging.Logger:
        """Writes to ``<log_dir>/<agent_name>.log.txt`` at the step's logging_level."""
        if self._logger is None:
            os.makedirs(self.log_dir, exist_ok=True)
            logger = logging.getLogger(f"azureml_user.parallel_run.{self.agent_name}")
            logger.setLevel(_env("LOGGING_LEVEL", "INFO").upper())
            logger.propagate = False  # v1 kept entry-script logs apart from stdout
            handler = logging.FileHandler(os.path.join(self.log_dir, f"{self.agent_name}.log.txt"), encoding="utf-8")
            handler.setFormatter(logging.Formatter("%(asctime)s|%(levelname)s|%(process)d|%(message)s"))
            logger.addHandler(handler)
            self._logger = logger
        return self._logger


__all__ = ["EntryScript"]
