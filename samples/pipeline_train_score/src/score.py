"""Step 3 (ParallelRunStep entry script): init() loads the model, run(mini_batch) scores each file's x values."""
import argparse
import os

from azureml_user.parallel_run import EntryScript

model = None


def init():
    global model
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", required=True)
    args, _ = parser.parse_known_args()
    with open(os.path.join(args.model, "model.txt")) as handle:
        model = tuple(float(v) for v in handle.read().split())
    EntryScript().logger.info("model loaded: %s", model)


def run(mini_batch):
    w, b = model
    results = []
    for path in mini_batch:
        for line in open(path):
            if line.strip() and not line.startswith("x"):
                x = float(line)
                results.append(f"{os.path.basename(path)} {x} {w * x + b:.3f}")
    return results
