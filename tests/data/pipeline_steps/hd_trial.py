"""A HyperDriveStep trial: reads prep's rows, logs 'accuracy' = quality x their sum, writes its model."""
import argparse, os
p = argparse.ArgumentParser(); p.add_argument("--data"); p.add_argument("--model")
p.add_argument("--quality", type=float)
p.add_argument("--scale", type=float, default=1.0)
a = p.parse_args()
total = sum(int(x) for x in open(os.path.join(a.data, "data.txt")).read().split())
score = a.quality * total * a.scale
from azureml.core.run import Run
run = Run.get_context()
run.log("accuracy", score / 2)
run.log("accuracy", score)
os.makedirs(a.model, exist_ok=True)
open(os.path.join(a.model, "out.txt"), "w").write(str(score))  # read_in.py reads it
os.makedirs("outputs", exist_ok=True)
open("outputs/model.txt", "w").write(f"quality={a.quality}")
