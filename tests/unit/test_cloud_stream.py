"""Pure pieces of the cloud run: which log v1 streams, incremental printing, status names, v1 signatures."""

from __future__ import annotations

import inspect
import io
import json

import pytest

from acpt_estimator.v1.core.script_run import ScriptRun as CloudRun  # cloud runs are ScriptRuns over a CloudRun handle
from acpt_estimator.backends.azureml.stream import LogPrinter, primary_log, v1_status
from tests.v1_signatures import PATH as SIGNATURES



@pytest.mark.parametrize("names, expected", [
    (["user_logs/std_log.txt"], "user_logs/std_log.txt"),
    (["user_logs/std_log_process_1.txt", "user_logs/std_log_process_0.txt"], "user_logs/std_log_process_0.txt"),
    (["user_logs/std_log_node_1_process_0.txt", "user_logs/std_log_node_0_process_1.txt",
      "user_logs/std_log_node_0_process_0.txt"], "user_logs/std_log_node_0_process_0.txt"),
    (["azureml-logs/70_driver_log_1.txt", "azureml-logs/70_driver_log_0.txt", "azureml-logs/55_exec.txt"],
     "azureml-logs/70_driver_log_0.txt"),
    (["azureml-logs/hyperdrive.txt"], "azureml-logs/hyperdrive.txt"),  # a sweep's own log
    (["system_logs/lifecycler/execution-wrapper.log"], None),
])
def test_the_rank_zero_user_log_is_streamed(names, expected):
    assert primary_log(dict.fromkeys(names, "url")) == expected


def test_log_lines_are_printed_once_and_partial_lines_wait():
    out = io.StringIO()
    printer = LogPrinter(out)
    printer.update("user_logs/std_log.txt", "", final=False)
    assert out.getvalue() == ""
    printer.update("user_logs/std_log.txt", "a\nb\npart", final=False)
    printer.update("user_logs/std_log.txt", "a\nb\npartial line\nc\n", final=False)
    printer.update("user_logs/std_log.txt", "a\nb\npartial line\nc\nlast", final=True)
    assert out.getvalue() == ("\nStreaming user_logs/std_log.txt\n===============================\n\n"
                              "a\nb\npartial line\nc\nlast\n")


def test_v2_statuses_are_shown_with_v1_names():
    assert v1_status("Completed") == "Completed" and v1_status("NotResponding") == "NotResponding"
    assert v1_status(None) == "NotStarted" and v1_status("Paused") == "Paused"

    class Enum:
        value = "CancelRequested"

    assert v1_status(Enum()) == "CancelRequested"


def test_cloud_run_methods_keep_v1_signatures():
    spec = json.load(open(SIGNATURES))
    for key, params in spec.items():
        if not key.startswith("azureml.core:Run.") or key.endswith("get_context"):
            continue
        method = getattr(CloudRun, key.rsplit(".", 1)[-1], None)
        if method is None or key.rsplit(".", 1)[-1] in ("log", "log_list", "log_row", "log_table", "log_image",
                                                         "complete", "fail", "upload_file"):
            continue  # in-job logging lives on the job-side run, not on the driver's CloudRun
        got = [(p.name, None if p.default is p.empty else repr(p.default))
               for p in inspect.signature(method).parameters.values() if p.name != "self"]
        assert got == [(p["name"], p["default"]) for p in params], key
