"""v1-style driver: train the TwinBERT-style model as a local job that exports it to ONNX, then serve it with ORT.

    ACPT_ESTIMATOR_TARGET=local python samples/twinbert_onnx/driver.py    # no Azure at all
    python samples/twinbert_onnx/driver.py                                 # compute_target='local' (reads config.json)
"""
import argparse
import os
import sys

from azureml.core import Experiment, Workspace
from azureml.train.dnn import PyTorch

HERE = os.path.dirname(os.path.abspath(__file__))

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--compute-target", default="local")
parser.add_argument("--steps", type=int, default=400)
parser.add_argument("--pairs", type=int, default=4000, help="held-out pairs to score when serving")
args = parser.parse_args()

ws = Workspace.from_config()
exp = Experiment(workspace=ws, name="twinbert-onnx")
estimator = PyTorch(source_directory=HERE, compute_target=args.compute_target, entry_script="train.py",
                    script_params={"--steps": args.steps, "--output-dir": "outputs"})
run = exp.submit(estimator)
print(run)
details = run.wait_for_completion(show_output=True)
print("status:", details["status"])
print("metrics:", {k: v for k, v in run.get_metrics().items() if k != "loss"})

# The job wrote the checkpoint and three verified ONNX files (fp32, ORT-optimised, int8) under outputs/.
onnx_files = [name for name in run.get_file_names() if name.endswith(".onnx")]
print("ONNX files in the run:", onnx_files)
run.download_files(prefix="outputs/", output_directory="twinbert", append_prefix=False)
for name, path in (("twinbert-onnx", "outputs/twinbert.onnx"), ("twinbert-onnx-int8", "outputs/twinbert.int8.onnx")):
    model = run.register_model(model_name=name, model_path=path, model_framework="Onnx")
    print("registered:", model.name, "version", model.version)

sys.path.insert(0, HERE)
from serve import evaluate_variants, load, print_results  # noqa: E402

print_results(evaluate_variants(load(os.path.join("twinbert", "twinbert.pt")), "twinbert", args.pairs), args.pairs)
