"""Reads every input of the data test job, checks contents, and tries to write into the read-only mount."""
import argparse
import json
import os

from azureml.core import Run

parser = argparse.ArgumentParser()
parser.add_argument("--mounted", required=True)
parser.add_argument("--downloaded", required=True)
parser.add_argument("--labels", required=True)
args = parser.parse_args()
run = Run.get_context()
rank = os.environ["RANK"]


def files(root):
    return sorted(os.path.relpath(os.path.join(d, f), root) for d, _, names in os.walk(root) for f in names)


seen = {
    "mounted": {f: open(os.path.join(args.mounted, f)).read() for f in files(args.mounted)},
    "downloaded": {f: open(os.path.join(args.downloaded, f)).read() for f in files(args.downloaded)},
    "labels": open(args.labels).read(),
    "train": {f: open(os.path.join(run.input_datasets["train"], f)).read()
              for f in files(run.input_datasets["train"])},
    "env_train": os.environ["train"] == run.input_datasets["train"],
}
try:
    with open(os.path.join(args.mounted, "intruder.txt"), "w") as handle:
        handle.write("should not land")
    seen["write_to_mount"] = "succeeded"
except OSError as err:
    seen["write_to_mount"] = type(err).__name__
with open(os.path.join(args.downloaded, "scratch.txt"), "w") as handle:  # a download is the job's own copy
    handle.write("fine")
os.makedirs("outputs", exist_ok=True)
with open(f"outputs/seen_{rank}.json", "w") as handle:
    json.dump(seen, handle)
