"""The v1 pipeline shapes whose v2 PipelineJob translations are pinned by golden files."""

import os

from acpt_estimator import PyTorch
from acpt_estimator.v1.core.datastore import Datastore
from acpt_estimator.v1.data.datapath import DataPath, DataPathComputeBinding
from acpt_estimator.v1.data.output_dataset_config import OutputFileDatasetConfig
from acpt_estimator.v1.pipeline.core import Pipeline, PipelineData, PipelineParameter
from acpt_estimator.v1.pipeline.steps import CommandStep, EstimatorStep, MpiStep, PythonScriptStep

SRC = os.path.join(os.path.dirname(__file__), os.pardir, "data", "pipeline_steps")


class _Workspace:
    name = "ws"


def _ds(name="workspaceblobstore"):
    return Datastore(_Workspace(), name)


def prep_and_mpi_train():
    """The course-lab shape: PipelineData between a PythonScriptStep and a 2-process MpiStep, a PipelineParameter."""
    data, model = PipelineData("prepared", datastore=_ds()), PipelineData("model")
    rows = PipelineParameter("rows", 5)
    prep = PythonScriptStep("prep.py", name="Prepare data", arguments=["--out", data, "--n", rows], outputs=[data],
                            source_directory=SRC, compute_target="cpu-cluster")
    train = MpiStep(name="train", source_directory=SRC, script_name="train.py", compute_target="gpu-cluster",
                    arguments=["--data", data.as_download(), "--model", model], inputs=[data.as_download()],
                    outputs=[model], node_count=2, process_count_per_node=2, use_gpu=True)
    return Pipeline(_Workspace(), [prep, train], description="prepare and train")


def estimator_outputs_and_order():
    """An EstimatorStep writing an OutputFileDatasetConfig read by a no-reuse step; a DataPath parameter; a
    CommandStep ordered by run_after only; no compute (serverless)."""
    raw = PipelineParameter("raw", DataPath(_ds(), "raw/2024"))
    written = OutputFileDatasetConfig(name="features", destination=(_ds(), "features/{run-id}"))
    est = PyTorch(SRC, entry_script="write_out.py", compute_target="cpu-cluster")
    featurize = EstimatorStep(name="featurize", estimator=est, compute_target="cpu-cluster",
                              estimator_entry_script_arguments=["--out", written, "--text",
                                                                (raw, DataPathComputeBinding(mode="mount"))])
    read = PythonScriptStep("read_in.py", name="read", arguments=["--in", written.as_input("features_in")],
                            source_directory=SRC, allow_reuse=False)
    report = CommandStep(command="echo done", name="report", source_directory=SRC, compute_target="cpu-cluster")
    report.run_after(read)
    return Pipeline(_Workspace(), [featurize, read, report], continue_on_step_failure=True)


def sweep_step():
    """A HyperDriveStep between two steps: prepared data in, the best trial's model out to a scoring step; a
    PipelineParameter in the trial's arguments; Bandit policy."""
    from acpt_estimator.v1.core.script_run_config import ScriptRunConfig
    from acpt_estimator.v1.train.hyperdrive import (BanditPolicy, HyperDriveConfig, PrimaryMetricGoal,
                                                    RandomParameterSampling, choice, uniform)
    from acpt_estimator.v1.pipeline.steps import HyperDriveStep

    data, model = PipelineData("prepared", datastore=_ds()), PipelineData("best_model")
    prep = PythonScriptStep("prep.py", name="prep", arguments=["--out", data, "--n", 5], outputs=[data],
                            source_directory=SRC, compute_target="cpu-cluster")
    config = HyperDriveConfig(
        run_config=ScriptRunConfig(SRC, script="hd_trial.py", compute_target="gpu-cluster"),
        hyperparameter_sampling=RandomParameterSampling({"quality": choice(1, 2, 3), "--lr": uniform(0.01, 0.1)}),
        policy=BanditPolicy(evaluation_interval=1, slack_factor=0.2), primary_metric_name="accuracy",
        primary_metric_goal=PrimaryMetricGoal.MAXIMIZE, max_total_runs=6, max_concurrent_runs=2,
        max_duration_minutes=30)
    tune = HyperDriveStep("tune model", config, estimator_entry_script_arguments=[
        "--data", data.as_mount(), "--model", model, "--scale", PipelineParameter("scale", 1.5)],
        inputs=[data.as_mount()], outputs=[model])
    score = PythonScriptStep("read_in.py", name="score", arguments=["--in", model], inputs=[model],
                             source_directory=SRC, compute_target="cpu-cluster")
    return Pipeline(_Workspace(), [prep, tune, score], description="tune inside a pipeline")


def sweep_training_outputs():
    """A HyperDriveStep with v1's TrainingOutputs: metrics_output read by a later step, the best trial's model file
    and its whole outputs/ folder (written in v2 by a command node after the sweep node)."""
    from acpt_estimator.v1.core.script_run_config import ScriptRunConfig
    from acpt_estimator.v1.pipeline.core import TrainingOutput
    from acpt_estimator.v1.pipeline.steps import HyperDriveStep
    from acpt_estimator.v1.train.hyperdrive import GridParameterSampling, HyperDriveConfig, PrimaryMetricGoal, choice

    metrics = PipelineData("metrics", datastore=_ds())
    model_file = PipelineData("model_file", training_output=TrainingOutput("Model", model_file="outputs/model.txt"))
    best_outputs = PipelineData("best_outputs", training_output=TrainingOutput("Model"))
    config = HyperDriveConfig(
        run_config=ScriptRunConfig(SRC, script="hd_trial.py", compute_target="gpu-cluster"),
        hyperparameter_sampling=GridParameterSampling({"quality": choice(1, 3)}), primary_metric_name="accuracy",
        primary_metric_goal=PrimaryMetricGoal.MINIMIZE, max_total_runs=2)
    tune = HyperDriveStep("tune", config, outputs=[model_file, best_outputs], metrics_output=metrics)
    report = PythonScriptStep("read_in.py", name="report", arguments=["--in", metrics, "--model", model_file],
                              inputs=[metrics, model_file], source_directory=SRC, compute_target="cpu-cluster")
    return Pipeline(_Workspace(), [tune, report])


def step_parameters():
    """PipelineParameters outside arguments: a step's params (AML_PARAMETER_<name>), runconfig_pipeline_params and
    MpiStep's process counts (fixed in the node when the job is created)."""
    greet = PythonScriptStep("env_param.py", name="greet", source_directory=SRC, compute_target="cpu-cluster",
                             params={"greeting": PipelineParameter("greeting", "hello"), "fixed": 3},
                             runconfig_pipeline_params={"NodeCount": PipelineParameter("greet_nodes", 1)})
    model = PipelineData("model")
    train = MpiStep(name="train", source_directory=SRC, script_name="train.py", compute_target="gpu-cluster",
                    arguments=["--model", model], outputs=[model], node_count=PipelineParameter("nodes", 2),
                    process_count_per_node=PipelineParameter("procs", 4),
                    environment_variables={"seed": PipelineParameter("seed", 7)})
    return Pipeline(_Workspace(), [greet, train])


CASES = {"pipeline_prep_mpi_train": prep_and_mpi_train, "pipeline_step_parameters": step_parameters,
         "pipeline_estimator_outputs": estimator_outputs_and_order,
         "pipeline_sweep_step": sweep_step, "pipeline_sweep_training_outputs": sweep_training_outputs}
