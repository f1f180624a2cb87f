"""A quick synthetic trial: 'accuracy' grows with --quality over 8 reports, 0.15 s apart."""
import argparse
import os
import time

from azureml.core.run import Run

parser = argparse.ArgumentParser()
parser.add_argument("--quality", type=float, required=True)
parser.add_argument("--steps", type=int, default=8)
args = parser.parse_args()
run = Run.get_context()
for step in range(args.steps):
    run.log("accuracy", args.quality * (step + 1) / args.steps)
    run.log("step", step)
    time.sleep(0.15)
os.makedirs("outputs", exist_ok=True)
with open("outputs/model.txt", "w") as handle:
    handle.write(f"quality={args.quality}\n")
