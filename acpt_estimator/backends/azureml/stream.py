"""``wait_for_completion``: poll the run-history details, stream the rank-0 log like v1, raise on failure."""

from __future__ import annotations

import json
import os
import re
import sys
import time

from ...exceptions import ActivityFailedException
from acpt_estimator.run_handle import TERMINAL_STATUSES

POLL_VAR = "ACPT_ESTIMATOR_POLL_SECONDS"
_FIRST_POLL, _MAX_POLL = 2.0, 60.0  # v1 polled every 2 s at first, backing off to a minute
_NUMBERS = re.compile(r"\d+")
# No status until the job is seen; other v2 names (NotResponding, Paused, Finalizing, ...) are shown as they are.
V1_STATUS = {"Unknown": "NotStarted", None: "NotStarted"}
# Where waiting stops: azure-ai-ml's RunHistoryConstants.TERMINAL_STATUSES (jobs.stream), checked by
# tests/unit/test_sdk_private.py. A NotResponding or Paused job needs a person, not a longer wait.
STOP_WAITING = TERMINAL_STATUSES + ("NotResponding", "Paused")
# The log each job kind streams (azure-ai-ml's JobLogPattern): the rank-0 user log, the legacy driver log, and a
# sweep's own log.
_LOG_PREFIXES = ("user_logs/std_log", "azureml-logs/70_driver_log", "azureml-logs/hyperdrive.txt")


def v1_status(status) -> str:
    text = getattr(status, "value", status)
    return V1_STATUS.get(text, text)


def poll_intervals():
    fixed = os.environ.get(POLL_VAR)
    if fixed:
        while True:
            yield float(fixed)
    delay = _FIRST_POLL
    while True:
        yield delay
        delay = min(delay * 1.5, _MAX_POLL)


def primary_log(log_files: dict) -> str | None:
    """The log v1 would stream: the rank-0 user log (``user_logs/std_log*.txt``), the legacy driver log, or for a
    sweep ``azureml-logs/hyperdrive.txt``."""
    for prefix in _LOG_PREFIXES:
        names = [n for n in log_files if n.startswith(prefix)]
        if names:
            # "std_log.txt" < "std_log_process_0.txt" < "std_log_process_1.txt": fewest/lowest numbers first.
            return min(names, key=lambda n: ([int(x) for x in _NUMBERS.findall(n.rsplit("/", 1)[-1])], n))
    return None


class LogPrinter:
    """Prints only the lines of a growing log that were not printed before."""

    def __init__(self, out=None):
        self.out = out or sys.stdout
        self.printed: dict[str, int] = {}

    def update(self, name: str, text: str, final: bool) -> None:
        lines = text.splitlines()
        if not final and text and not text.endswith("\n"):
            lines = lines[:-1]  # a line still being written: print it once it is complete
        done = self.printed.get(name, 0)
        if len(lines) <= done:
            return
        if name not in self.printed:
            self.out.write(f"\nStreaming {name}\n{'=' * (len(name) + 10)}\n\n")
        for line in lines[done:]:
            self.out.write(line + "\n")
        self.printed[name] = len(lines)
        self.out.flush()


def wait_for_completion(run, show_output: bool, raise_on_error: bool) -> dict:
    """Block until the run is terminal; with ``show_output`` print what v1 printed. Returns the details dict."""
    out = sys.stdout
    if show_output:
        out.write(f"RunId: {run.id}\nWeb View: {run.get_portal_url()}\n")
        out.flush()
    printer = LogPrinter(out)
    intervals = poll_intervals()
    try:
        while True:
            details = run._history_details()
            status = v1_status(details.get("status"))
            if show_output:
                _stream(run, details.get("logFiles") or {}, printer, final=status in STOP_WAITING)
            if status in STOP_WAITING:
                break
            time.sleep(next(intervals))
    except KeyboardInterrupt:
        out.write("\nThe output streaming for the run interrupted.\nBut the run is still executing on the compute "
                  f"target. Cancel it with run.cancel() or in the studio: {run.get_portal_url()}\n")
        raise
    details = run._v1_details(details)
    if show_output:
        out.write(f"\nExecution Summary\n=================\nRunId: {run.id}\nWeb View: {run.get_portal_url()}\n\n")
        if status not in TERMINAL_STATUSES:
            out.write(f"The run is {status}; waiting stops here, as in azure-ai-ml. Check it in the studio, then "
                      "call run.get_status() again later, or run.cancel().\n")
        out.flush()
    if status == "Failed":
        error = details.get("error") or {"error": {"message": "The run failed; see its logs (run.get_file_names())."}}
        if raise_on_error:
            raise ActivityFailedException(f"Activity Failed:\n{json.dumps(error, indent=4)}")
        if show_output:
            out.write(f"Error:\n{json.dumps(error, indent=4)}\n")
    return details


def _stream(run, log_files: dict, printer: LogPrinter, final: bool) -> None:
    name = primary_log(log_files)
    if name is None:
        return
    text = run._services().get_bytes(log_files[name]).decode("utf-8", errors="replace")
    printer.update(name, text, final)
