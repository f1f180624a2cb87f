"""A v1 training + batch-scoring pipeline, unchanged: prep -> 2-rank PyTorch training -> ParallelRunStep scoring.

Run it on this machine: ACPT_ESTIMATOR_TARGET=local python samples/pipeline_train_score/driver.py
(with a cluster name and a config.json, the same driver submits one Azure ML v2 pipeline job).
"""
import os
import random
import tempfile

from azureml.core import Dataset, Environment, Experiment, Workspace
from azureml.pipeline.core import Pipeline, PipelineData, PipelineParameter
from azureml.pipeline.steps import EstimatorStep, ParallelRunConfig, ParallelRunStep, PythonScriptStep
from azureml.train.dnn import Mpi, PyTorch

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, "src")
COMPUTE = os.environ.get("PIPELINE_COMPUTE", "cpu-cluster")

ws = Workspace.from_config() if os.path.exists("config.json") else Workspace("sub", "rg", "ws")
datastore = ws.get_default_datastore()

# Data: training points on y = 3x + 2 (with noise and a few incomplete rows), and files of x values to score.
random.seed(0)
data = tempfile.mkdtemp()
with open(os.path.join(data, "train.csv"), "w") as handle:
    handle.write("x,y\n")
    for i in range(200):
        x = random.uniform(-1, 1)
        handle.write(f"{x:.4f},{3 * x + 2 + random.gauss(0, 0.05):.4f}\n" if i % 20 else f"{x:.4f},\n")
os.makedirs(os.path.join(data, "score"))
for part in range(4):
    with open(os.path.join(data, "score", f"part_{part}.csv"), "w") as handle:
        handle.write("x\n" + "".join(f"{part + i / 10}\n" for i in range(3)))
datastore.upload(src_dir=data, target_path="pipeline-sample", overwrite=True, show_progress=False)
to_score = Dataset.File.from_files(path=(datastore, "pipeline-sample/score/*.csv"))

# The pipeline: PipelineData joins the steps; epochs is a PipelineParameter.
prepared = PipelineData("prepared", datastore=datastore)
model = PipelineData("model", datastore=datastore)
scores = PipelineData("scores", datastore=datastore)
epochs = PipelineParameter(name="epochs", default_value=200)

raw = datastore.path("pipeline-sample/train.csv", data_reference_name="raw").as_download()
prep = PythonScriptStep(script_name="prep.py", name="prep", source_directory=SRC, compute_target=COMPUTE,
                        arguments=["--raw", raw, "--out", prepared], inputs=[raw], outputs=[prepared])
estimator = PyTorch(source_directory=SRC, entry_script="train.py", compute_target=COMPUTE, node_count=1,
                    distributed_training=Mpi(process_count_per_node=2))
train = EstimatorStep(name="train", estimator=estimator, compute_target=COMPUTE,
                      estimator_entry_script_arguments=["--data", prepared, "--model", model, "--epochs", epochs],
                      inputs=[prepared], outputs=[model])
config = ParallelRunConfig(source_directory=SRC, entry_script="score.py", mini_batch_size="2", error_threshold=0,
                           output_action="append_row", environment=Environment("batch-scoring"),
                           compute_target=COMPUTE, node_count=1, process_count_per_node=2)
score = ParallelRunStep(name="score", parallel_run_config=config, inputs=[to_score.as_named_input("to_score")],
                        side_inputs=[model.as_mount()], arguments=["--model", model.as_mount()], output=scores)

pipeline = Pipeline(workspace=ws, steps=[prep, train, score])
print("validation errors:", pipeline.validate())
run = Experiment(ws, "train-and-score").submit(pipeline)
run.wait_for_completion(show_output=True)

train_run = run.find_step_run("train")[0]
print("train metrics:", train_run.get_metrics())
folder = run.find_step_run("score")[0].get_output_data("scores").download(tempfile.mkdtemp(), show_progress=False)
with open(os.path.join(folder, "parallel_run_step.txt")) as handle:
    lines = sorted(handle.read().splitlines())
print(f"scored {len(lines)} values, e.g. {lines[0]}")

# Published, then submitted again with another parameter value: prep is unchanged and reused.
published = pipeline.publish(name="train-and-score", description="sample", version="1")
again = published.submit(ws, "train-and-score", pipeline_parameters={"epochs": 100})
again.wait_for_completion(show_output=True)
print("second run, train metrics:", again.find_step_run("train")[0].get_metrics())
