"""v1-era HyperDrive tuning driver, unchanged: random sampling, Bandit policy, best run, model registration.

Run it locally with:  ACPT_ESTIMATOR_TARGET=local python samples/hyperdrive_tuning/driver.py
"""
import os

from azureml.core import Experiment, Workspace
from azureml.train.dnn import PyTorch
from azureml.train.hyperdrive import BanditPolicy, HyperDriveConfig, PrimaryMetricGoal, RandomParameterSampling
from azureml.train.hyperdrive import uniform
from azureml.widgets import RunDetails

ws = Workspace.from_config()
experiment = Experiment(ws, "pytorch-hyperdrive")
estimator = PyTorch(source_directory=os.path.join(os.path.dirname(os.path.abspath(__file__)), "src"),
                    script_params={"--output_dir": "./outputs", "--num_epochs": 12},
                    compute_target="gpu-cluster", entry_script="pytorch_train.py", use_gpu=True)
param_sampling = RandomParameterSampling({"learning_rate": uniform(0.0005, 0.05), "momentum": uniform(0.5, 0.99)},
                                         properties={"seed": 42})
early_termination_policy = BanditPolicy(slack_factor=0.15, evaluation_interval=1, delay_evaluation=10)
hyperdrive_config = HyperDriveConfig(estimator=estimator, hyperparameter_sampling=param_sampling,
                                     policy=early_termination_policy, primary_metric_name="best_val_acc",
                                     primary_metric_goal=PrimaryMetricGoal.MAXIMIZE, max_total_runs=4,
                                     max_concurrent_runs=2)
hyperdrive_run = experiment.submit(hyperdrive_config)
RunDetails(hyperdrive_run).show()
hyperdrive_run.wait_for_completion(show_output=True)

best_run = hyperdrive_run.get_best_run_by_primary_metric()
best_metrics = best_run.get_metrics()
print("best run:", best_run.id)
print("best_val_acc:", best_metrics["best_val_acc"][-1], "lr:", best_metrics["lr"])
print("hyperparameters:", hyperdrive_run.get_hyperparameters()[best_run.id])
model = best_run.register_model(model_name="pytorch-hyperdrive", model_path="outputs/model.pt")
print("registered", model.name, model.version)
