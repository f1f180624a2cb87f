"""v1 ParallelRunConfig/ParallelRunStep: v1's validation rules, the neutral StepSpec, the local driver command and
the v2 parallel node (golden file, validated by the SDK, round-tripped through load_job)."""

from __future__ import annotations

import json
import os
import re
import shlex

import pytest
import yaml

from acpt_estimator.pipelines.kinds.parallel import driver_command, local_job
from acpt_estimator.pipelines.spec import StepBuildContext
from acpt_estimator.v1.core.environment import Environment
from acpt_estimator.v1.core.workspace import Workspace
from acpt_estimator.v1.data.file_dataset import FileDataset
from acpt_estimator.v1.data.tabular_dataset import TabularDataset
from acpt_estimator.v1.pipeline.core.builder import PipelineData
from acpt_estimator.v1.pipeline.core.graph import PipelineParameter
from acpt_estimator.v1.pipeline.steps import ParallelRunConfig, ParallelRunStep

SCRIPTS = os.path.join(os.path.dirname(__file__), os.pardir, "data", "parallel_run")
GOLDEN = os.path.join(os.path.dirname(__file__), os.pardir, "data", "golden")
REGENERATE = os.environ.get("ACPT_REGENERATE_GOLDEN") == "1"


def assert_golden(data: dict, name: str) -> None:
    path = os.path.join(GOLDEN, name)
    if REGENERATE:
        with open(path, "w", encoding="utf-8") as handle:
            yaml.safe_dump(data, handle, sort_keys=False)
    with open(path, encoding="utf-8") as handle:
        assert data == yaml.safe_load(handle), f"regenerate with ACPT_REGENERATE_GOLDEN=1 and review {path}"


@pytest.fixture()
def datastore(tmp_path, monkeypatch):
    monkeypatch.setenv("ACPT_ESTIMATOR_HOME", str(tmp_path / ".acpt"))
    monkeypatch.setenv("ACPT_ESTIMATOR_TARGET", "local")
    return Workspace.from_config().get_default_datastore()


def config(**overrides):
    values = dict(environment=Environment("batch"), entry_script="score_files.py", source_directory=SCRIPTS,
                  error_threshold=10, output_action="append_row", compute_target="cpu-cluster", node_count=2)
    values.update(overrides)
    return ParallelRunConfig(**values)


@pytest.mark.parametrize("overrides, message", [
    ({"environment": None}, "Parameter environment is required"),
    ({"environment": "env"}, "must be an instance of azureml.core.Environment"),
    ({"output_action": "append"}, "output_action must be summary_only or append_row"),
    ({"error_threshold": -2}, "error_threshold '-2' is not an int value greater than or equal to -1"),
    ({"allowed_failed_count": 1.5}, "allowed_failed_count '1.5'"),
    ({"allowed_failed_percent": 101}, "allowed_failed_percent '101' is not between 0 and 100"),
    ({"mini_batch_size": "10", "partition_keys": ["a"]}, "mutually exclusive"),
    ({"mini_batch_size": "10 MB"}, "does not follow v1's rule"),
    ({"mini_batch_size": 1.5}, "must be of type int or str"),
    ({"partition_keys": "Store"}, "partition_keys must be of type list"),
    ({"partition_keys": PipelineParameter("keys", "Store")}, "json dump result of a list of str"),
    ({"process_count_per_node": 0}, "process_count_per_node must be an integer greater than 0"),
    ({"node_count": 0}, "node_count must be an integer greater than 0"),
    ({"run_invocation_timeout": 0}, "run_invocation_timeout must be an integer greater than 0"),
    ({"run_max_try": 0}, "run_max_try must be an integer greater than 0"),
    ({"append_row_file_name": "a/b.txt"}, "append_row_file_name must be a valid UNIX file name"),
    ({"logging_level": "LOUD"}, "logging_level='LOUD'"),
])
def test_config_refuses_what_v1_refused(overrides, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace("'", "'")):
        config(**overrides)


def test_config_sizes_and_parameters():
    assert config(mini_batch_size="10MB").mini_batch_size == 10 * 1024 * 1024
    assert config(mini_batch_size="1kb").mini_batch_size == 1024
    assert config(mini_batch_size=5).mini_batch_size == 5
    size = PipelineParameter("size", "2")
    assert config(mini_batch_size=size, node_count=PipelineParameter("nodes", 2)).mini_batch_size is size
    assert config(partition_keys=PipelineParameter("keys", '["Store"]')).partition_keys.name == "keys"


def test_config_yaml_round_trip(tmp_path):
    original = config(mini_batch_size="2", process_count_per_node=3, environment_variables={"A": "1"})
    original.save_to_yaml(str(tmp_path / "prs.yml"))
    loaded = ParallelRunConfig.load_yaml(None, str(tmp_path / "prs.yml"))
    assert (loaded.mini_batch_size, loaded.process_count_per_node, loaded.environment_variables,
            loaded.compute_target, loaded.environment.name) == (2, 3, {"A": "1"}, "cpu-cluster", "batch")


def test_step_refuses_what_v1_refused(datastore):
    files = FileDataset(paths=((datastore, "raw/**"),)).as_named_input("files")
    table = TabularDataset(paths=((datastore, "t/*.csv"),)).as_named_input("rows")
    out = PipelineData("scores", datastore=datastore)
    with pytest.raises(ValueError, match="keyword argument"):
        ParallelRunStep("s", config(), [files], out, arguments=["positional"])
    with pytest.raises(ValueError, match="'mini_batch_size' is a reserved argument"):
        ParallelRunStep("s", config(), [files], out, arguments=["--mini_batch_size", "3"])
    with pytest.raises(ValueError, match="must be a list and have at least one element"):
        ParallelRunStep("s", config(), [], out)
    with pytest.raises(ValueError, match="All inputs of step must be same type"):
        ParallelRunStep("s", config(), [files, table], out)
    with pytest.raises(ValueError, match="Please specify output parameter"):
        ParallelRunStep("s", config(), [files])
    with pytest.raises(ValueError, match="entry_script doesn't exist"):
        ParallelRunStep("s", config(entry_script="missing.py"), [files], out)
    with pytest.raises(ValueError, match="Step input must be of any type"):
        ParallelRunStep("s", config(), [datastore.path("raw")], out)
    ParallelRunStep("s", config(output_action="summary_only"), [files])  # no output needed


def _step(datastore, **overrides):
    files = FileDataset(paths=((datastore, "raw/files/**"),)).as_named_input("files")
    step = ParallelRunStep("score-files", config(mini_batch_size=PipelineParameter("batch_size", "2"),
                                                 process_count_per_node=2, **overrides),
                           inputs=[files], output=PipelineData("scores", datastore=datastore),
                           arguments=["--prefix", "p q"])
    return step._to_step_spec(StepBuildContext(node_name="score_files", producers={"scores": "score_files"}))


def test_step_spec_and_local_driver_command(datastore):
    spec = _step(datastore)
    assert (spec.kind, spec.parallel.input_names, spec.parallel.output_name) == ("parallel", ("files",), "scores")
    assert (spec.job.distribution.node_count, spec.job.distribution.process_count_per_node) == (2, 2)
    assert [p.name for p in spec.parameters] == ["batch_size"]
    words = shlex.split(driver_command(spec, spec.job, {"batch_size": "4"}, python="python"))
    assert words[:5] == ["python", "-m", "acpt_estimator.job_runtime.acpt_parallel.driver", "--entry_script",
                         "score_files.py"]
    options = dict(zip(words[5::2], words[6::2]))
    assert options["--input"] == "files=$AZURE_ML_INPUT_files" and options["--mini_batch_size"] == "4"
    assert options["--node_count"] == "2" and options["--process_count_per_node"] == "2"
    assert words[words.index("--") + 1:] == ["--prefix", "p q"]
    job = local_job(spec, spec.job)
    assert job.distribution.world_size == 1 and job.command and not job.arguments  # one driver rank


def test_v2_parallel_node_matches_golden_file(datastore, tmp_path):
    from azure.ai.ml import load_job

    from acpt_estimator.backends.azureml.translate import job_to_yaml
    from acpt_estimator.pipelines.kinds.parallel_v2 import ADAPTER, to_parallel_node

    table = TabularDataset(paths=((datastore, "oj/*.csv"),), transformations=(
        {"read_delimited": {"delimiter": ",", "header": "all_files_same_headers"}},))
    step = ParallelRunStep("score-rows", config(entry_script="partition_income.py", partition_keys=["Store"],
                                                append_row_file_name="revenue.txt", run_invocation_timeout=600),
                           inputs=[table.as_named_input("oj")], output=PipelineData("scores", datastore=datastore),
                           arguments=["--model_name", "income-factor"])
    spec = step._to_step_spec(StepBuildContext(node_name="score_rows", producers={"scores": "score_rows"}))
    job = to_parallel_node(spec, code_root=str(tmp_path))._to_job()
    code = job.task.code
    assert os.path.isfile(os.path.join(code, ADAPTER)) and os.path.isfile(os.path.join(code, "partition_income.py"))
    text = job_to_yaml(job).replace(code, "<staged code>")
    assert_golden(yaml.safe_load(text), "parallel_run_step.yml")
    # v2 runs parallel nodes inside pipeline jobs: one holding this node validates and round-trips as YAML
    from azure.ai.ml.entities import PipelineJob

    pipeline = PipelineJob(jobs={"score_rows": to_parallel_node(spec, code_root=str(tmp_path))},
                           compute="cpu-cluster")
    assert pipeline._validate().passed, pipeline._validate().error_messages
    (tmp_path / "pipeline.yml").write_text(job_to_yaml(pipeline))
    loaded = load_job(str(tmp_path / "pipeline.yml"))
    assert loaded._validate().passed
    node = loaded.jobs["score_rows"]
    assert node.task["program_arguments"] == job.task.program_arguments
    assert json.loads(node.environment_variables["ACPT_DATASET_oj"])["type"] == "tabular"


def test_an_input_written_by_another_step_is_linked(datastore, tmp_path):
    from acpt_estimator.pipelines.kinds.parallel_v2 import to_parallel_node

    prepared = PipelineData("prepared", datastore=datastore).as_dataset()
    step = ParallelRunStep("score", config(description="nightly scoring"), inputs=[prepared.as_named_input("prep")],
                           output=PipelineData("scores", datastore=datastore))
    spec = step._to_step_spec(StepBuildContext(node_name="score", producers={"prepared": "prep", "scores": "score"}))
    assert [(link.input_name, link.step, link.output) for link in spec.links] == [("prep", "prep", "prepared")]
    node = to_parallel_node(spec, code_root=str(tmp_path))  # the pipeline translation binds the input
    assert node.inputs["prep"].path is None and node.description == "nightly scoring"


def test_in_a_v2_pipeline_job_the_node_reads_its_producer_and_the_pipeline_parameters(datastore, tmp_path,
                                                                                     monkeypatch):
    """A PythonScriptStep writes files a ParallelRunStep scores: one v2 PipelineJob (golden file), the parallel
    node's input bound to the producer's output, PipelineParameters bound to the pipeline's inputs."""
    from azure.ai.ml import load_job

    from acpt_estimator.backends.azureml.pipeline_translate import to_pipeline_job
    from acpt_estimator.backends.azureml.translate import job_to_yaml
    from acpt_estimator.v1.pipeline.core import Pipeline
    from acpt_estimator.v1.pipeline.steps import PythonScriptStep

    monkeypatch.setenv("ACPT_ESTIMATOR_PARALLEL_CODE_DIR", str(tmp_path / "staged"))
    files = PipelineData("files", datastore=datastore)
    make = PythonScriptStep("count_lines.py", name="make_files", arguments=["--scores", files], outputs=[files],
                            source_directory=SCRIPTS, compute_target="cpu-cluster")
    score = ParallelRunStep("score", config(mini_batch_size=PipelineParameter("batch_size", "2"),
                                            process_count_per_node=PipelineParameter("procs", 2)),
                            inputs=[files.as_dataset().as_named_input("batch")],
                            output=PipelineData("scores", datastore=datastore), arguments=["--prefix", "p"])
    job = to_pipeline_job(Pipeline(datastore.workspace, [make, score])._to_spec("golden"),
                          {"batch_size": "5"})
    node = job.jobs["score"]
    assert node.inputs["batch"]._data.path == "${{parent.jobs.make_files.outputs.files}}"
    assert (node.mini_batch_size, node.max_concurrency_per_instance) == ("${{parent.inputs.batch_size}}",
                                                                          "${{parent.inputs.procs}}")
    assert job.inputs["batch_size"]._data == "5"
    from acpt_estimator.job_runtime import RUNTIME_DIR

    # the installed package's job_runtime folder differs per checkout, as in the other pipeline golden files
    text = job_to_yaml(job).replace(os.path.abspath(SCRIPTS), "<steps>").replace(RUNTIME_DIR, "<job_runtime>")
    data = yaml.safe_load(re.sub(re.escape(str(tmp_path / "staged")) + r"/code-\w+", "<staged code>", text))
    assert_golden(data, "pipeline_parallel_run_step.yml")
    (tmp_path / "pipeline.yml").write_text(job_to_yaml(job))
    loaded = load_job(str(tmp_path / "pipeline.yml"))
    assert loaded._validate().passed and loaded.jobs["score"].mini_batch_size == "${{parent.inputs.batch_size}}"


def test_a_node_count_parameter_is_fixed_to_the_value_the_pipeline_job_is_created_with(datastore, tmp_path,
                                                                                       monkeypatch, caplog):
    from acpt_estimator.backends.azureml.pipeline_translate import to_pipeline_job
    from acpt_estimator.v1.pipeline.core import Pipeline

    monkeypatch.setenv("ACPT_ESTIMATOR_PARALLEL_CODE_DIR", str(tmp_path / "staged"))
    from acpt_estimator.v1.pipeline.steps import PythonScriptStep

    files = PipelineData("files", datastore=datastore)
    make = PythonScriptStep("count_lines.py", name="make_files", arguments=["--scores", files], outputs=[files],
                            source_directory=SCRIPTS, compute_target="cpu-cluster")
    score = ParallelRunStep("score", config(node_count=PipelineParameter("nodes", 2)),
                            inputs=[files.as_dataset().as_named_input("batch")], output=PipelineData("scores"))
    spec = Pipeline(datastore.workspace, [make, score])._to_spec("golden")
    assert to_pipeline_job(spec).jobs["score"].resources.instance_count == 2  # the default
    assert to_pipeline_job(spec, {"nodes": 3}).jobs["score"].resources.instance_count == 3  # given at submit
    assert "node_count=PipelineParameter('nodes') is written into the v2 node" in caplog.text
