"""Step 1 (PythonScriptStep): keep the rows with both columns, write them to the prepared folder."""
import argparse
import csv
import os

from azureml.core.run import Run

parser = argparse.ArgumentParser()
parser.add_argument("--raw", required=True)
parser.add_argument("--out", required=True)
args = parser.parse_args()
os.makedirs(args.out, exist_ok=True)
kept = 0
with open(args.raw) as source, open(os.path.join(args.out, "train.csv"), "w", newline="") as target:
    writer = csv.writer(target)
    for row in csv.DictReader(source):
        if row["x"] and row["y"]:
            writer.writerow([row["x"], row["y"]])
            kept += 1
Run.get_context().log("rows", kept)
print(f"prepared {kept} rows")
