"""v1-style driver: Horovod's MNIST example as a PyTorch estimator with distributed_backend='mpi'.

    ACPT_ESTIMATOR_TARGET=local python samples/horovod_mnist/driver.py            # on this machine (mpiexec)
    ACPT_ESTIMATOR_TARGET=local python samples/horovod_mnist/driver.py --nodes 2  # 2 simulated nodes x 2 ranks
    ACPT_ESTIMATOR_HOROVOD=layer ...  # force acpt-estimator's Horovod layer even where real Horovod is installed
"""
import argparse
import os

from azureml.core import Experiment, Workspace
from azureml.train.dnn import PyTorch

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--nodes", type=int, default=1)
parser.add_argument("--epochs", type=int, default=3)
parser.add_argument("--compute-target", default="cpu-cluster")
args = parser.parse_args()

ws = Workspace.from_config()
estimator = PyTorch(source_directory=os.path.join(os.path.dirname(os.path.abspath(__file__)), "src"),
                    compute_target=args.compute_target,
                    entry_script="train.py",
                    script_params={"--epochs": args.epochs},
                    node_count=args.nodes,
                    process_count_per_node=2,
                    distributed_backend="mpi",
                    framework_version="1.6")
run = Experiment(ws, "horovod-mnist").submit(estimator)
details = run.wait_for_completion(show_output=True)
print("status:", details["status"])
metrics = run.get_metrics()
print("horovod size:", metrics["hvd_size"], "layer:", metrics["horovod_layer"])
print("loss per epoch:", metrics["loss"])
run.register_model(model_name="horovod-mnist", model_path="outputs/model.pt")
