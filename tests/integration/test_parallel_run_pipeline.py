"""ParallelRunStep in local v1 pipelines (real worker processes): the v1 batch-scoring recipes end to end."""

from __future__ import annotations

import os
import tempfile

import pytest

from acpt_estimator.v1.core.dataset import Dataset
from acpt_estimator.v1.core.environment import Environment
from acpt_estimator.v1.core.experiment import Experiment
from acpt_estimator.v1.core.model import Model
from acpt_estimator.v1.pipeline.core import Pipeline, PipelineData
from acpt_estimator.v1.pipeline.steps import ParallelRunConfig, ParallelRunStep, PythonScriptStep
from tests.local_fixtures import local_workspace  # noqa: F401
from tests.parallel_run_fixtures import SCRIPTS, datastore  # noqa: F401

pytestmark = pytest.mark.integration


def _config(**values):
    return ParallelRunConfig(environment=Environment("batch_environment"), source_directory=SCRIPTS,
                             output_action="append_row", compute_target="cpu-cluster", **values)


def test_partition_per_column_recipe_writes_what_v1_wrote(datastore, local_workspace):
    """v1's tabular-dataset-partition-per-column notebook with a model read in init(): partition_by, the step,
    and the output file read back as the notebook did."""
    ws = local_workspace
    oj = Dataset.Tabular.from_delimited_files(path=(datastore, "raw/oj/*.csv"))
    partitioned = oj.partition_by(partition_keys=["Store", "Brand"], target=(datastore, "partition_by_key_res"),
                                  name="partitioned_oj_data", show_progress=False)
    model_file = os.path.join(tempfile.mkdtemp(), "factor.txt")
    with open(model_file, "w") as handle:
        handle.write("2")
    Model.register(ws, model_path=model_file, model_name="income-factor")
    output_dir = PipelineData(name="inferences", datastore=datastore)
    config = _config(entry_script="partition_income.py", partition_keys=["Store", "Brand"], error_threshold=5,
                     append_row_file_name="revenue_outputs.txt", node_count=2, process_count_per_node=1,
                     run_invocation_timeout=600)
    step = ParallelRunStep(name="summarize-revenue", inputs=[partitioned.as_named_input("partitioned_tabular_input")],
                           output=output_dir, parallel_run_config=config, allow_reuse=False,
                           arguments=["--model_name", "income-factor"])
    run = Experiment(ws, "tabular-dataset-partition").submit(Pipeline(workspace=ws, steps=[step]))
    assert run.wait_for_completion(show_output=False) == "Completed"
    batch_run = run.find_step_run(step.name)[0]
    batch_output = batch_run.get_output_data(output_dir.name)
    target_dir = tempfile.mkdtemp()
    batch_output.download(local_path=target_dir, show_progress=False)
    result_file = os.path.join(target_dir, batch_output.path_on_datastore, config.append_row_file_name)
    with open(result_file) as handle:
        assert handle.read() == ("1990-06-14 200 10.5 2 dominicks 21.0\n1990-06-14 100 10.5 2 tropicana 42.0\n"
                                 "1990-06-21 70 10.5 2 tropicana 42.0\n1990-06-21 50 11.2 5 tropicana 22.4\n")
    logs = batch_run.get_details_with_logs()["logFiles"]
    entry_logs = "".join(text for name, text in logs.items() if "entry_script_log" in name)
    assert "model income-factor gives factor 2.0" in entry_logs and "partition {'Store': 5" in entry_logs


def test_file_and_tabular_datasets_with_append_row_feed_a_later_step(datastore, local_workspace):
    ws = local_workspace
    files = Dataset.File.from_files(path=(datastore, "raw/files/**"))
    table = Dataset.Tabular.from_delimited_files(path=(datastore, "raw/table/*.csv"))
    scores, rows = PipelineData("scores", datastore=datastore), PipelineData("rows", datastore=datastore)
    score_files = ParallelRunStep("score-files", _config(entry_script="score_files.py", mini_batch_size="2",
                                                         error_threshold=0, node_count=2, process_count_per_node=2),
                                  inputs=[files.as_named_input("files")], output=scores, arguments=["--prefix", "p"])
    score_rows = ParallelRunStep("score-rows", _config(entry_script="score_table.py", mini_batch_size="1KB",
                                                       error_threshold=0, node_count=1, process_count_per_node=2),
                                 inputs=[table.as_named_input("table_rows")], output=rows)
    count = PythonScriptStep("count_lines.py", name="count", arguments=["--scores", scores.as_mount()],
                             inputs=[scores.as_mount()], source_directory=SCRIPTS, compute_target="cpu-cluster")
    run = Experiment(ws, "batch-scoring").submit(Pipeline(ws, [score_files, score_rows, count]))
    assert run.wait_for_completion(show_output=False) == "Completed"
    assert run.find_step_run("count")[0].get_metrics() == {"lines": 5}
    folder = run.find_step_run("score-rows")[0].get_output_data("rows").download(tempfile.mkdtemp(),
                                                                                 show_progress=False)
    with open(os.path.join(folder, "parallel_run_step.txt")) as handle:
        assert handle.read() == '1 "a b" 2\n2 c 4\n3 d 6\n'
