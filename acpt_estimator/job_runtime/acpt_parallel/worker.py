"""One ParallelRunStep worker process: ``init()`` once, then ``run(mini_batch[, mini_batch_context])`` per task.

The driver sends tasks as JSON lines on stdin and reads reports as JSON lines from the file descriptor named by
``ACPT_PRS_STATUS_FD``; stdout and stderr are the worker's own log files (v1's logs/user/stdout|stderr layout).
"""

from __future__ import annotations

import importlib.util
import inspect
import json
import logging
import os
import pickle
import sys
import traceback

STATUS_FD_VAR = "ACPT_PRS_STATUS_FD"


class MiniBatchContext:
    """v1's second argument to ``run``: ``partition_key_value``, ``dataset`` (the mini-batch's part of the input)
    and ``minibatch_index``."""

    def __init__(self, partition_key_value, dataset, minibatch_index):
        self.partition_key_value = partition_key_value
        self.dataset = dataset
        self.minibatch_index = minibatch_index

    def __repr__(self) -> str:
        return (f"MiniBatchContext(partition_key_value={self.partition_key_value!r}, "
                f"minibatch_index={self.minibatch_index})")


def _dataset(task: dict):
    import acpt_datasets

    found = task.get("dataset")
    if not found:
        return None
    make = acpt_datasets.JobTabularDataset if task["kind"] == "tabular" else acpt_datasets.JobFileDataset
    return make(found["name"], found["path"], dict(found["definition"], mode="direct"))


def format_rows(result, kind: str) -> tuple[int, str]:
    """(successful items, append_row text): a DataFrame's rows space-separated without header or index (as v1
    wrote them), any other sequence one ``str(element)`` per line."""
    if result is None:
        raise TypeError("run() returned None; return a list (one element per input item it handled) or a "
                        "pandas DataFrame (one row per input row).")
    if type(result).__name__ == "DataFrame" and hasattr(result, "to_csv"):
        text = result.to_csv(sep=" ", header=False, index=False, lineterminator="\n")
        return len(result), text
    if isinstance(result, (str, bytes)) or not hasattr(result, "__iter__"):
        raise TypeError(f"run() returned a {type(result).__name__}; return a list or a pandas DataFrame.")
    rows = [str(item) for item in result]
    return len(rows), "".join(row + "\n" for row in rows)


def _load(entry_script: str):
    folder = os.path.dirname(os.path.abspath(entry_script))
    if folder not in sys.path:
        sys.path.insert(0, folder)  # the script's own modules import as they did in v1
    name = os.path.splitext(os.path.basename(entry_script))[0]
    spec = importlib.util.spec_from_file_location(name, entry_script)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    if not callable(getattr(module, "run", None)):
        raise AttributeError(f"{entry_script} has no run(mini_batch) function; ParallelRunStep entry scripts define "
                             "init() (optional) and run(mini_batch).")
    return module


def _takes_context(run) -> bool:
    try:
        params = [p for p in inspect.signature(run).parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.VAR_POSITIONAL)]
    except (TypeError, ValueError):
        return False
    return len(params) >= 2 or any(p.kind == p.VAR_POSITIONAL for p in params)


def main() -> int:
    status = os.fdopen(int(os.environ[STATUS_FD_VAR]), "w", buffering=1)

    def report(**fields):
        status.write(json.dumps(fields) + "\n")

    entry_script, user_args = sys.argv[1], sys.argv[2:]
    sys.argv = [entry_script] + user_args  # the step's arguments reach the script's argparse, as in v1
    root = logging.getLogger()
    root.setLevel(os.environ.get("ACPT_PRS_LOGGING_LEVEL", "INFO").upper())
    root.addHandler(logging.StreamHandler(sys.stdout))  # v1: logging goes to the worker's stdout log
    try:
        module = _load(entry_script)
        if callable(getattr(module, "init", None)):
            module.init()
    except BaseException:  # noqa: BLE001 - any failure of the user's init is reported, then the worker ends
        report(init_error=traceback.format_exc())
        return 1
    report(ready=True)
    context = _takes_context(module.run)
    for line in sys.stdin:
        message = json.loads(line)
        if message.get("stop"):
            break
        with open(message["task"], "rb") as handle:
            task = pickle.load(handle)
        mini_batch = task["frame"] if task["kind"] == "tabular" else task["files"]
        try:
            args = (mini_batch, MiniBatchContext(task.get("partition_key_value"), _dataset(task), task["index"])) \
                if context else (mini_batch,)
            succeeded, text = format_rows(module.run(*args), task["kind"])
            if message.get("result"):
                with open(message["result"] + ".tmp", "w", encoding="utf-8") as handle:
                    handle.write(text)
                os.replace(message["result"] + ".tmp", message["result"])
            report(done=task["index"], succeeded=succeeded)
        except Exception:  # noqa: BLE001 - a failed mini-batch is retried or counted, never fatal to the worker
            report(failed=task["index"], error=traceback.format_exc())
        sys.stdout.flush()
        sys.stderr.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
