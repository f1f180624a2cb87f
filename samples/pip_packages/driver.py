"""v1-era driver, unchanged: an estimator with pip_packages on top of the framework environment.

Run it locally with:  ACPT_ESTIMATOR_TARGET=local python samples/pip_packages/driver.py
(locally the packages must already be installed; in the cloud they are built into an image FROM the ACPT one)
"""
import os

from azureml.core import Experiment, Workspace
from azureml.train.dnn import PyTorch

ws = Workspace.from_config()
estimator = PyTorch(source_directory=os.path.join(os.path.dirname(os.path.abspath(__file__)), "src"),
                    compute_target="gpu-cluster", entry_script="train.py", use_gpu=True, pip_packages=["tqdm"])
run = Experiment(ws, "pytorch-pip-packages").submit(estimator)
run.wait_for_completion(show_output=True)
print(run.get_metrics())
