"""v1-era driver, unchanged: a 2-node torch.distributed job over gloo with $AZ_BATCHAI_* arguments.

Run it locally with:  ACPT_ESTIMATOR_TARGET=local python samples/gloo_distributed/driver.py
"""
import os

from azureml.core import Experiment, Workspace
from azureml.train.dnn import Gloo, PyTorch

ws = Workspace.from_config()
estimator = PyTorch(source_directory=os.path.join(os.path.dirname(os.path.abspath(__file__)), "src"),
                    script_params={"--dist-backend": "gloo", "--dist-url": "$AZ_BATCHAI_PYTORCH_INIT_METHOD",
                                   "--rank": "$AZ_BATCHAI_TASK_INDEX", "--world-size": 2, "--epochs": 5},
                    compute_target="cpu-cluster", entry_script="train_dist.py", node_count=2,
                    distributed_training=Gloo())
run = Experiment(ws, "pytorch-gloo").submit(estimator)
details = run.wait_for_completion(show_output=True)
print("status:", details["status"])
metrics = run.get_metrics()
print("weights_in_sync:", metrics["weights_in_sync"])
run.register_model(model_name="gloo-linear", model_path="outputs/model.pt")
