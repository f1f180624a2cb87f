"""A v2 parallel job's entry script that runs a v1 ParallelRunStep entry script unchanged.

v2's parallel runtime calls ``init()`` and ``run(mini_batch)`` here with file paths of the ``uri_folder`` input.
This adapter loads the v1 script (``--acpt_entry_script``), leaves the step's own arguments in ``sys.argv`` for its
argparse, and for tabular inputs reads each mini-batch's files into a DataFrame with the dataset's definition
(``$ACPT_DATASET_<name>``); with partition_keys it passes v1's ``mini_batch_context``. Standard library at import.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if _ROOT not in sys.path:  # acpt_datasets and acpt_parallel ship beside this file in the job's code
    sys.path.insert(0, _ROOT)

from acpt_parallel.worker import MiniBatchContext, _load, _takes_context  # noqa: E402

_state: dict = {}


def init():
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--acpt_entry_script", required=True)
    parser.add_argument("--acpt_input_name", required=True)
    parser.add_argument("--acpt_input_path", required=True)
    parser.add_argument("--acpt_partition_keys", default="[]")
    ours, rest = parser.parse_known_args(sys.argv[1:])
    sys.argv = [ours.acpt_entry_script] + rest  # the v1 script's argparse sees the step's arguments
    import acpt_datasets

    definition = json.loads(os.environ.get(acpt_datasets.DEFINITION_VAR + ours.acpt_input_name) or "null") or {
        "type": "file", "paths": [""]}
    module = _load(os.path.join(_ROOT, ours.acpt_entry_script))
    _state.update(module=module, definition=definition, name=ours.acpt_input_name, path=ours.acpt_input_path,
                  keys=json.loads(ours.acpt_partition_keys), context=_takes_context(module.run), index=0)
    if callable(getattr(module, "init", None)):
        module.init()


def run(mini_batch, *_):
    import acpt_datasets

    definition, path = _state["definition"], _state["path"]
    root = definition.get("root") or ""
    files = [(f, acpt_datasets.job_relative(path, f)) for f in mini_batch]
    items = [(f, rel, root + rel) for f, rel in files]
    batch = acpt_datasets.read_table(definition, items) if definition.get("type") == "tabular" else list(mini_batch)
    args = (batch,)
    if _state["context"]:
        found = acpt_datasets.partition_format_of(definition)
        values = acpt_datasets.typed_partition_values(definition, acpt_datasets.partition_values(
            found, items[0][2])) if found and items and _state["keys"] else {}
        subset = dict(definition, paths=[rel for _, rel in files], mode="direct")
        kind = acpt_datasets.JobTabularDataset if definition.get("type") == "tabular" else \
            acpt_datasets.JobFileDataset
        args += (MiniBatchContext({k: values.get(k) for k in _state["keys"]} or None,
                                  kind(_state["name"], path, subset), _state["index"]),)
    _state["index"] += 1
    return _state["module"].run(*args)
