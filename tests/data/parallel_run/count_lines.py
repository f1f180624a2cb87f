"""A downstream pipeline step: counts the lines ParallelRunStep appended and logs the count."""
import argparse
import os

from azureml.core.run import Run

parser = argparse.ArgumentParser()
parser.add_argument("--scores", required=True)
args = parser.parse_args()
with open(os.path.join(args.scores, "parallel_run_step.txt")) as handle:
    Run.get_context().log("lines", len(handle.read().splitlines()))
