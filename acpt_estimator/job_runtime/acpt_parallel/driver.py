"""The ParallelRunStep driver: plan mini-batches, run node_count x process_count_per_node workers, enforce
run_invocation_timeout / run_max_try / the error thresholds, and write append_row's file and v1's job logs.

``python -m acpt_parallel.driver --entry_script score.py --input name=path ... [-- user arguments]``; the
dataset definition of input ``name`` comes from ``$ACPT_DATASET_<name>`` (a plain folder without one).
Exit status 0 when the step succeeded, 42 when it failed (v1's leader exit code), with the reason in
``logs/job_result.txt`` and on stderr.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

_RUNTIME = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if _RUNTIME not in sys.path:  # acpt_datasets, azureml_user and this package import from the job runtime folder
    sys.path.insert(0, _RUNTIME)

FAILED_EXIT = 42


def parse(argv: list[str]):
    own, user = (argv[:argv.index("--")], argv[argv.index("--") + 1:]) if "--" in argv else (argv, [])
    parser = argparse.ArgumentParser(prog="acpt_parallel.driver", description=__doc__.splitlines()[0])
    parser.add_argument("--entry_script", required=True)
    parser.add_argument("--input", action="append", default=[], metavar="NAME=PATH")
    parser.add_argument("--definition", action="append", default=[], metavar="NAME=JSON",
                        help="the dataset definition of an input that has no $ACPT_DATASET_<name>")
    parser.add_argument("--mini_batch_size", default=None)
    parser.add_argument("--partition_keys", default=None, help="a JSON list of keys")
    parser.add_argument("--error_threshold", type=int, default=-1)
    parser.add_argument("--allowed_failed_count", type=int, default=None)
    parser.add_argument("--allowed_failed_percent", type=float, default=None)
    parser.add_argument("--output_action", choices=["append_row", "summary_only"], default="append_row",
                        type=str.lower)
    parser.add_argument("--append_row_file_name", default="parallel_run_step.txt")
    parser.add_argument("--output", default=None)
    parser.add_argument("--node_count", type=int, default=1)
    parser.add_argument("--process_count_per_node", type=int, default=None)
    parser.add_argument("--run_invocation_timeout", type=float, default=60)
    parser.add_argument("--run_max_try", type=int, default=3)
    parser.add_argument("--logging_level", default="INFO")
    parser.add_argument("--logs", default="logs")
    args = parser.parse_args(own)
    args.user_args = user
    return args


def _inputs(pairs: list[str], given: list[str]) -> list[tuple[str, str, dict]]:
    from acpt_datasets import DEFINITION_VAR

    definitions = dict(item.partition("=")[::2] for item in given)
    found = []
    for pair in pairs:
        name, sep, path = pair.partition("=")
        if not sep or not name:
            raise ValueError(f"--input {pair!r}: pass NAME=PATH.")
        text = definitions.get(name) or os.environ.get(DEFINITION_VAR + name) or "null"
        definition = json.loads(text) or {"type": "file", "paths": [""]}
        found.append((name, os.path.abspath(path), definition))
    return found


def main(argv: list[str] | None = None) -> int:
    from .batches import PlanError, plan
    from .sizes import parse_mini_batch_size
    from .supervise import Job, write_logs

    args = parse(sys.argv[1:] if argv is None else argv)
    logs = os.path.abspath(args.logs)
    try:
        if args.run_max_try < 1 or args.run_invocation_timeout <= 0 or args.node_count < 1:
            raise ValueError("run_max_try and node_count must be at least 1, run_invocation_timeout above 0.")
        if not os.path.isfile(args.entry_script):
            raise ValueError(f"entry_script {args.entry_script!r} is not a file in {os.getcwd()}.")
        size = parse_mini_batch_size(args.mini_batch_size) if args.mini_batch_size not in (None, "", "None") \
            else None
        keys = json.loads(args.partition_keys) if args.partition_keys not in (None, "", "None") else []
        if not isinstance(keys, list) or not all(isinstance(k, str) for k in keys):
            raise ValueError(f"--partition_keys {args.partition_keys!r}: pass a JSON list of key names.")
        tasks = plan(_inputs(args.input, args.definition), size, keys)
    except (PlanError, ValueError, OSError) as err:
        write_logs(logs, f"Failed: {err}", [], None)
        print(f"ParallelRunStep failed before any mini-batch ran: {err}", file=sys.stderr)
        return FAILED_EXIT
    job = Job(args, tasks, logs)
    try:
        reason = job.run()
        if reason is None and args.output_action == "append_row":
            job.write_output()
    finally:
        job.close()
    write_logs(logs, f"Failed: {reason}" if reason else "Succeeded", job.records, job.errors)
    if reason:
        print(f"ParallelRunStep failed: {reason} See logs/job_error.txt and logs/user/ for the entry script's "
              "errors and output.", file=sys.stderr)
        return FAILED_EXIT
    print(f"ParallelRunStep succeeded: {len(tasks)} mini-batches, {job.succeeded_items} items processed"
          + (f", {job.failed_items} failed (error_threshold {args.error_threshold})." if job.failed_items else "."))
    return 0


if __name__ == "__main__":
    sys.exit(main())
