"""A v1 training script as the dataset docs write it: tabular input by name, a mounted file dataset, an output."""
import argparse
import json
import os

from azureml.core import Dataset, Run

parser = argparse.ArgumentParser()
parser.add_argument("--iris", required=True)  # the tabular input (direct mode): what Dataset.get_by_id takes
parser.add_argument("--images", required=True)  # a mounted file dataset: a folder
parser.add_argument("--output", required=True)  # OutputFileDatasetConfig: a folder to write into
parser.add_argument("--prepared", required=True)
parser.add_argument("--titanic", required=True)  # a tabular dataset of a web CSV: downloaded for the job
parser.add_argument("--pictures", required=True)  # a file dataset passed as it is (direct): the job gets the dataset
args = parser.parse_args()

run = Run.get_context()
df = run.input_datasets["iris"].to_pandas_dataframe()
by_id = Dataset.get_by_id(run.experiment.workspace, id=args.iris).to_pandas_dataframe()
summary = {"rows": len(df), "species": sorted(df["species"].unique()), "same_by_id": by_id.equals(df),
           "images": sorted(os.listdir(args.images)), "images_is_path": run.input_datasets["images"] == args.images,
           "pictures": run.input_datasets["pictures"].to_path(),
           "survived": int(run.input_datasets["titanic"].to_pandas_dataframe()["Survived"].sum())}
with open(os.path.join(args.output, "summary.json"), "w") as handle:
    json.dump(summary, handle)
df[df["species"] == "setosa"].to_csv(os.path.join(args.prepared, "setosa.csv"), index=False)
