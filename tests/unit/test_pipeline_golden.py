"""Golden files pin each v1 pipeline shape's v2 PipelineJob; every job passes the SDK's checks and round-trips."""

import os

import pytest
import yaml

from acpt_estimator.backends.azureml.pipeline_translate import to_pipeline_job
from acpt_estimator.backends.azureml.translate import job_to_yaml
from acpt_estimator.job_runtime import INPUT_NAME, RUNTIME_DIR

from .golden import check_golden
from .pipeline_golden_cases import CASES, SRC



def _normalise_node(node: dict) -> None:
    from acpt_estimator.pipelines.sweep_outputs import CODE_DIR

    for holder in (node, node.get("component") or {}, node.get("trial") or {}):  # trial: a sweep node's
        if holder.get("code") == CODE_DIR:  # the installed package's folder
            holder["code"] = "<sweep_outputs>"
        elif isinstance(holder.get("code"), str):
            holder["code"] = os.path.relpath(holder["code"], os.path.abspath(SRC)).replace(".", "<steps>", 1)
        runtime = (holder.get("inputs") or {}).get(INPUT_NAME)
        if isinstance(runtime, dict) and "path" in runtime:  # the installed package's folder: differs per machine
            runtime["path"] = "<job_runtime>"


def _translated(case):
    spec = CASES[case]()._to_spec("golden")
    return to_pipeline_job(spec)


@pytest.mark.parametrize("case", sorted(CASES))
def test_pipeline_translation_matches_golden_file(case):
    data = yaml.safe_load(job_to_yaml(_translated(case)))
    for node in data["jobs"].values():
        _normalise_node(node)
    check_golden(case, data)


@pytest.mark.parametrize("case", sorted(CASES))
def test_pipeline_job_round_trips_through_load_job(case, tmp_path):
    from azure.ai.ml import load_job

    job = _translated(case)
    path = tmp_path / "pipeline.yml"
    path.write_text(job_to_yaml(job))
    loaded = load_job(str(path))
    assert type(loaded).__name__ == "PipelineJob" and loaded._validate().passed
    assert sorted(loaded.jobs) == sorted(job.jobs)
    for name, node in job.jobs.items():
        again = loaded.jobs[name]
        assert again.component.command == node.component.command
        assert again.component.is_deterministic == node.component.is_deterministic


def test_the_wiring_is_what_v1_meant():
    job = _translated("pipeline_prep_mpi_train")
    train, prep = job.jobs["train"], job.jobs["prepare_data"]
    assert train.inputs["prepared"]._data.path == "${{parent.jobs.prepare_data.outputs.prepared}}"
    assert train.inputs["prepared"]._data.mode == "download"
    assert "--n '${{inputs.rows}}'" in prep.component.command and job.inputs["rows"]._data == 5
    assert train.distribution.process_count_per_instance == 2 and train.resources.instance_count == 2
    other = _translated("pipeline_estimator_outputs")
    assert other.settings.continue_on_step_failure is True and other.settings.default_compute == "serverless"
    assert other.jobs["read"].component.is_deterministic is False  # allow_reuse=False
    assert other.jobs["report"].inputs["acpt_after_read"]._data.path == "${{parent.jobs.read.outputs.acpt_done}}"
    assert other.inputs["raw"]._data.path == "azureml://datastores/workspaceblobstore/paths/raw/2024/"


def test_data_transfer_is_a_copy_node_and_steps_without_v2_equivalent_refuse_in_translation():
    from acpt_estimator.exceptions import V1NotSupportedException
    from acpt_estimator.v1.pipeline.core import Pipeline, PipelineData
    from acpt_estimator.v1.pipeline.steps import DataTransferStep, KustoStep, PythonScriptStep

    from .pipeline_golden_cases import _ds, _Workspace

    written = PipelineData("written")
    write = PythonScriptStep("write_out.py", name="write", arguments=["--out", written], outputs=[written],
                             source_directory=SRC, compute_target="cpu-cluster")
    copy = DataTransferStep("archive", source_data_reference=written,
                            destination_data_reference=_ds().path("archive/latest"))
    job = to_pipeline_job(Pipeline(_Workspace(), [write, copy])._to_spec("golden"))
    node = job.jobs["archive"]
    (output,) = node.outputs  # the datastore path, uploaded when the copy ends
    assert node.component.command.splitlines()[-1] == \
        f"python copy_data.py --source ${{{{inputs.written}}}} --destination ${{{{outputs.{output}}}}}"
    assert node.outputs[output]._data.path == "azureml://datastores/workspaceblobstore/paths/archive/latest"
    assert node.inputs["written"]._data.path == "${{parent.jobs.write.outputs.written}}"
    kusto = KustoStep(name="query", database_name="db", query_directory="q")
    with pytest.raises(V1NotSupportedException, match=r"KustoStep 'query' is not supported.*Use instead: a v2"):
        to_pipeline_job(Pipeline(_Workspace(), [kusto, write])._to_spec("golden"))


def test_a_hyperdrive_step_is_a_sweep_node_over_its_trial():
    job = _translated("pipeline_sweep_step")
    tune = job.jobs["tune_model"]
    assert type(tune).__name__ == "Sweep" and tune.display_name == "tune model"
    assert tune.inputs["prepared"]._data.path == "${{parent.jobs.prep.outputs.prepared}}"
    assert str(tune.inputs["scale"]._data) == "${{parent.inputs.scale}}" and job.inputs["scale"]._data == 1.5
    assert sorted(tune.search_space) == ["lr", "quality"] and tune.limits.max_total_trials == 6
    assert job.jobs["score"].inputs["best_model"]._data.path == "${{parent.jobs.tune_model.outputs.best_model}}"
    assert "--quality '${{inputs.quality}}' --lr '${{inputs.lr}}'" in tune.trial.command


def test_a_hyperdrive_steps_training_outputs_are_written_by_a_command_node_after_its_sweep_node():
    job = _translated("pipeline_sweep_training_outputs")
    assert list(job.jobs) == ["tune", "tune_training_outputs", "report"]
    writer = job.jobs["tune_training_outputs"]
    # it starts once the sweep node (every trial) has ended, in the step's environment and compute
    assert writer.inputs["acpt_after_tune"]._data.path == "${{parent.jobs.tune.outputs.acpt_done}}"
    assert writer.environment == job.jobs["tune"].trial.environment and writer.compute == "gpu-cluster"
    assert {n: o.type for n, o in writer.outputs.items()} == {
        "metrics": "uri_file", "model_file": "uri_file", "best_outputs": "uri_folder"}  # v1: files at the path
    assert writer.component.command.splitlines()[-1] == (
        "python write_training_outputs.py --sweep-node tune --primary-metric accuracy --goal minimize "
        "--model-file ${{outputs.model_file}} outputs/model.txt --model-folder ${{outputs.best_outputs}} "
        "--metrics ${{outputs.metrics}} --job-runtime ${{inputs.acpt_job_runtime}}")
    report = job.jobs["report"]  # consumers read the writer's outputs, as files
    assert report.inputs["metrics"]._data.path == "${{parent.jobs.tune_training_outputs.outputs.metrics}}"
    assert report.component.inputs["metrics"].type == "uri_file"
    assert "metrics" not in (job.jobs["tune"].outputs or {})  # the trials write none of them


def test_on_an_acpt_curated_environment_the_writer_node_still_gets_the_job_runtime_folder():
    import attrs

    from acpt_estimator.spec import EnvironmentSpec

    spec = CASES["pipeline_sweep_training_outputs"]()._to_spec("golden")
    curated = EnvironmentSpec(kind="curated", name="AzureML-acpt-pytorch-2.8-cuda12.6", label="latest")
    tune = spec.step("tune")
    spec = attrs.evolve(spec, steps=tuple(attrs.evolve(s, job=attrs.evolve(s.job, environment=curated))
                                          if s is tune else s for s in spec.steps))
    job = to_pipeline_job(spec)
    writer = job.jobs["tune_training_outputs"]
    assert writer.environment == "azureml:AzureML-acpt-pytorch-2.8-cuda12.6@latest"
    assert writer.inputs[INPUT_NAME]._data.path == RUNTIME_DIR  # read by the script, not put on PYTHONPATH
    assert "PYTHONPATH" not in writer.component.command
    assert writer.component.command.endswith("--job-runtime ${{inputs.acpt_job_runtime}}")


def test_a_step_named_like_the_writer_node_is_refused_with_the_fix():
    from acpt_estimator.exceptions import UserErrorException
    from acpt_estimator.v1.pipeline.core import Pipeline
    from acpt_estimator.v1.pipeline.steps import PythonScriptStep

    from .pipeline_golden_cases import _Workspace

    pipeline = CASES["pipeline_sweep_training_outputs"]()
    other = PythonScriptStep("write_out.py", name="tune_training_outputs", source_directory=SRC,
                             compute_target="cpu-cluster")
    spec = Pipeline(_Workspace(), list(pipeline._steps) + [other])._to_spec("golden")
    with pytest.raises(UserErrorException, match=r"HyperDriveStep 'tune'.*'tune_training_outputs'.*rename that step"):
        to_pipeline_job(spec)
