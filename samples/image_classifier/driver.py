"""v1-era driver, unchanged: a single-process PyTorch estimator, RunDetails, metrics, model registration.

Run it locally with:  ACPT_ESTIMATOR_TARGET=local python samples/image_classifier/driver.py
"""
import os

import azureml.core
from azureml.core import Experiment, Workspace
from azureml.core.compute import AmlCompute, ComputeTarget
from azureml.core.compute_target import ComputeTargetException
from azureml.telemetry import set_diagnostics_collection
from azureml.train.dnn import PyTorch
from azureml.widgets import RunDetails

print("SDK version:", azureml.core.VERSION)
set_diagnostics_collection(send_diagnostics=True)

ws = Workspace.from_config()
cluster_name = "gpu-cluster"
try:
    compute_target = ComputeTarget(workspace=ws, name=cluster_name)
    print("Found existing compute target")
except ComputeTargetException:
    print("Creating a new compute target...")
    config = AmlCompute.provisioning_configuration(vm_size="STANDARD_NC6", max_nodes=4)
    compute_target = ComputeTarget.create(ws, cluster_name, config)
    compute_target.wait_for_completion(show_output=True, min_node_count=None, timeout_in_minutes=20)

project_folder = os.path.join(os.path.dirname(os.path.abspath(__file__)), "src")
estimator = PyTorch(source_directory=project_folder, compute_target=compute_target, entry_script="train.py",
                    script_params={"--epochs": 3, "--learning-rate": 0.05, "--output-dir": "./outputs"},
                    use_gpu=True)
experiment = Experiment(ws, name="pytorch-image-classifier")
run = experiment.submit(estimator)
RunDetails(run).show()
run.wait_for_completion(show_output=True)

metrics = run.get_metrics()
print("metrics:", {k: metrics[k] for k in ("lr", "accuracy")})
print(run.get_file_names())
run.download_file(name="outputs/model.pt", output_file_path="./downloaded_model.pt")
model = run.register_model(model_name="pytorch-classifier", model_path="outputs/model.pt")
print("registered", model.name, model.version)
