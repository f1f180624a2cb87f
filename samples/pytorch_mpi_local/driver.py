"""v1-style driver: a PyTorch estimator with MPI, run on this machine through mpiexec.

    python samples/pytorch_mpi_local/driver.py                     # compute_target='local' (needs config.json)
    ACPT_ESTIMATOR_TARGET=local python samples/pytorch_mpi_local/driver.py --compute-target cpu-cluster
                                                                   # a cloud target, forced local, no Azure at all
"""
import argparse
import os

from azureml.core import Experiment, Workspace
from azureml.train.dnn import Mpi, PyTorch

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--compute-target", default="local")
parser.add_argument("--epochs", type=int, default=20)
args = parser.parse_args()

ws = Workspace.from_config()
exp = Experiment(workspace=ws, name="pytorch-mpi-local")
estimator = PyTorch(source_directory=os.path.join(os.path.dirname(os.path.abspath(__file__)), "src"),
                    compute_target=args.compute_target,
                    entry_script="train.py",
                    script_params={"--epochs": args.epochs, "--lr": 0.05, "--rank": "$AZ_BATCHAI_TASK_INDEX"},
                    node_count=1,
                    distributed_training=Mpi(process_count_per_node=2),
                    framework_version="1.6")
run = exp.submit(estimator)
print(run)
details = run.wait_for_completion(show_output=True)
print("status:", details["status"])

metrics = run.get_metrics()
print("final loss:", metrics["loss"][-1], "logged values:", len(metrics["loss"]))
print("ranks in sync:", metrics["params_in_sync"])

run.download_file("outputs/model.pt", output_file_path="model.pt")
model = run.register_model(model_name="pytorch-mpi-local", model_path="outputs/model.pt")
print("registered:", model.name, "version", model.version)
