"""A v1 pipeline driver, unchanged: acpt-estimator convert writes its pipeline as one v2 PipelineJob YAML."""
from azureml.core import Experiment, Workspace
from azureml.pipeline.core import Pipeline, PipelineData, PipelineParameter
from azureml.pipeline.steps import MpiStep, PythonScriptStep

ws = Workspace.from_config()
data = PipelineData("prepared", datastore=ws.get_default_datastore())
rows = PipelineParameter("rows", 5)
prep = PythonScriptStep("prep.py", name="prep", arguments=["--out", data, "--n", rows], outputs=[data],
                        source_directory="src", compute_target="cpu-cluster")
train = MpiStep(name="train", source_directory="src", script_name="train.py", compute_target="cpu-cluster",
                arguments=["--data", data.as_mount()], inputs=[data.as_mount()], node_count=1,
                process_count_per_node=2)
pipeline = Pipeline(ws, [prep, train])
run = Experiment(ws, "pipeline-demo").submit(pipeline, pipeline_parameters={"rows": 7})
print("status", run.wait_for_completion(show_output=True))
