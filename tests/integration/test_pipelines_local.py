"""v1 pipelines run here as a DAG of real local jobs: data between steps, parameters, MPI ranks, reuse, failures."""

from __future__ import annotations

import os

import pytest

from acpt_estimator.exceptions import ActivityFailedException
from acpt_estimator.v1.core.experiment import Experiment
from acpt_estimator.v1.data.output_dataset_config import OutputFileDatasetConfig
from acpt_estimator.v1.pipeline.core import Pipeline, PipelineData, PipelineParameter, StepSequence
from acpt_estimator.v1.pipeline.steps import CommandStep, MpiStep, PythonScriptStep
from tests.local_fixtures import local_workspace  # noqa: F401

pytestmark = pytest.mark.integration
SRC = os.path.join(os.path.dirname(__file__), os.pardir, "data", "pipeline_steps")


def _prep_and_train(ws):
    data, model = PipelineData("prepared", datastore=ws.get_default_datastore()), PipelineData("model")
    n = PipelineParameter("n", 5)
    prep = PythonScriptStep("prep.py", name="prep", arguments=["--out", data, "--n", n], outputs=[data],
                            source_directory=SRC, compute_target="cpu-cluster")
    train = MpiStep(name="train", source_directory=SRC, script_name="train.py", compute_target="cpu-cluster",
                    arguments=["--data", data.as_mount(), "--model", model], inputs=[data.as_mount()],
                    outputs=[model], node_count=1, process_count_per_node=2)
    return Pipeline(ws, [train])  # prep joins as the producer of train's input (v1's resolve_closure)


def test_parameters_data_mpi_ranks_outputs_and_reuse(local_workspace, tmp_path, capsys):
    pipeline = _prep_and_train(local_workspace)
    assert pipeline.validate() == []
    exp = Experiment(local_workspace, "pipelines")
    run = exp.submit(pipeline)
    assert run.wait_for_completion(show_output=True) == "Completed"
    shown = capsys.readouterr().out
    assert "StepRun(prep) Status: Completed" in shown and "PipelineRun Status: Completed" in shown
    steps = list(run.get_steps())
    assert [s.name for s in steps] == ["train", "prep"]  # most recent first, as v1
    train = run.find_step_run("train")[0]
    assert train.get_metrics() == {"total": [10, 10]}  # both ranks read what prep wrote: 0+1+2+3+4
    assert train.parent.id == run.id and train.get_status() == "Completed"
    assert train.wait_for_completion(show_output=False, timeout_seconds=30) == "Completed"
    folder = train.get_output_data("model").download(str(tmp_path / "dl"), show_progress=False)
    assert open(os.path.join(folder, "model.txt")).read() == "10"

    again = exp.submit(pipeline)  # nothing changed: both steps reused (v1's allow_reuse=True default)
    again.wait_for_completion(show_output=False)
    assert again.find_step_run("train")[0].id == train.id
    changed = exp.submit(pipeline, pipeline_parameters={"n": 6})  # a new value runs both steps again
    changed.wait_for_completion(show_output=False)
    assert changed.find_step_run("train")[0].get_metrics() == {"total": [15, 15]}
    assert changed.find_step_run("prep")[0].id != run.find_step_run("prep")[0].id
    fresh = exp.submit(pipeline, regenerate_outputs=True)
    fresh.wait_for_completion(show_output=False)
    assert fresh.find_step_run("train")[0].id not in (train.id, changed.find_step_run("train")[0].id)


def test_a_failing_middle_step_stops_its_dependents_unless_told_otherwise(local_workspace):
    first = PipelineData("first")
    write = PythonScriptStep("write_out.py", name="write", arguments=["--out", first], outputs=[first],
                             source_directory=SRC, compute_target="c")
    broken = PythonScriptStep("fail.py", name="broken", source_directory=SRC, compute_target="c")
    broken.run_after(write)
    after = PythonScriptStep("read_in.py", name="after", arguments=["--in", first], inputs=[first],
                             source_directory=SRC, compute_target="c", allow_reuse=False)
    after.run_after(broken)
    alone = CommandStep(command="echo independent", name="alone", source_directory=SRC, compute_target="c")
    exp = Experiment(local_workspace, "failing")
    run = exp.submit(Pipeline(local_workspace, [write, broken, after, alone]))
    with pytest.raises(ActivityFailedException, match="broken"):
        run.wait_for_completion(show_output=False)
    assert run.get_status() == "Failed"
    assert {s.name: s.get_status() for s in run.get_steps()}["broken"] == "Failed"
    assert run.find_step_run("after") == []  # never started
    ok = exp.submit(Pipeline(local_workspace, [write, broken, after]), continue_on_step_failure=True)
    assert ok.wait_for_completion(show_output=False, raise_on_error=False) == "Failed"
    assert ok.find_step_run("after") == []  # it depends on the failed step
    independent = exp.submit(Pipeline(local_workspace, StepSequence([write, [broken, alone]])),
                             continue_on_step_failure=True)
    independent.wait_for_completion(raise_on_error=False)
    assert independent.find_step_run("alone")[0].get_status() == "Completed"


def test_output_file_dataset_config_feeds_the_next_step_and_the_step_sees_its_parent(local_workspace):
    out = OutputFileDatasetConfig(name="written")
    write = PythonScriptStep("write_out.py", name="write", arguments=["--out", out, "--text", "v1 data"],
                             source_directory=SRC, compute_target="c")
    read = PythonScriptStep("read_in.py", name="read", arguments=["--in", out.as_input("from_write")],
                            source_directory=SRC, compute_target="c")
    run = Experiment(local_workspace, "datasets").submit(Pipeline(local_workspace, [write, read]))
    run.wait_for_completion(show_output=False)
    metrics = run.find_step_run("read")[0].get_metrics()
    assert metrics == {"read": "v1 data", "parent": run.id}


def test_data_transfer_copies_between_steps_and_steps_without_v2_equivalent_refuse_at_submit(local_workspace):
    from acpt_estimator.exceptions import V1NotSupportedException
    from acpt_estimator.v1.pipeline.steps import DatabricksStep, DataTransferStep

    written, copied = PipelineData("written"), PipelineData("copied")
    write = PythonScriptStep("write_out.py", name="write", arguments=["--out", written, "--text", "moved"],
                             outputs=[written], source_directory=SRC, compute_target="c")
    ds = local_workspace.get_default_datastore()
    transfer = DataTransferStep("transfer", source_data_reference=written, destination_data_reference=copied)
    archive = DataTransferStep("archive", source_data_reference=copied,
                               destination_data_reference=ds.path("archive/latest"))
    read = PythonScriptStep("read_in.py", name="read", arguments=["--in", transfer.get_output()],
                            inputs=[transfer.get_output()], source_directory=SRC, compute_target="c")
    run = Experiment(local_workspace, "transfer").submit(Pipeline(local_workspace, [write, transfer, archive, read]))
    run.wait_for_completion(show_output=False)
    assert run.find_step_run("read")[0].get_metrics()["read"] == "moved"
    archived = os.path.join(os.environ["ACPT_ESTIMATOR_HOME"], "datastores", ds.name, "archive", "latest", "out.txt")
    assert open(archived).read() == "moved"
    databricks = DatabricksStep(name="spark", notebook_path="/Users/me/etl", run_name="etl")
    pipeline = Pipeline(local_workspace, [databricks, write])
    assert pipeline.validate() == []  # it builds
    with pytest.raises(V1NotSupportedException, match=r"DatabricksStep 'spark' is not supported.*Use instead:"):
        Experiment(local_workspace, "refused").submit(pipeline)


def test_cancel_ends_every_running_step_and_nothing_after_it_starts(local_workspace):
    import time

    slow_a = PythonScriptStep("sleep.py", name="slow_a", source_directory=SRC, compute_target="c", allow_reuse=False)
    slow_b = PythonScriptStep("sleep.py", name="slow_b", source_directory=SRC, compute_target="c", allow_reuse=False)
    later = PythonScriptStep("write_out.py", name="later", arguments=["--out", "o"], source_directory=SRC,
                             compute_target="c")
    later.run_after(slow_a)
    run = Experiment(local_workspace, "cancel").submit(Pipeline(local_workspace, [slow_a, slow_b, later]))
    deadline, pids = time.monotonic() + 60, {}
    while len(pids) < 2 and time.monotonic() < deadline:  # both scripts have started
        for step in run.get_steps():
            log = "".join(step.get_details_with_logs()["logFiles"].values())
            if "pid " in log:
                pids[step.name] = int(log.split("pid ", 1)[1].split()[0])
        time.sleep(0.1)
    assert sorted(pids) == ["slow_a", "slow_b"]
    run.cancel()
    assert run.wait_for_completion(show_output=False, raise_on_error=False) == "Canceled"
    statuses = {s.name: s.get_status() for s in run.get_steps()}
    assert statuses == {"slow_a": "Canceled", "slow_b": "Canceled"}  # "later" never started
    from acpt_estimator.backends.local.procs import job_pids

    for step in run.get_steps():  # no process of either step is left
        assert job_pids(step.id) == []


CTRL_C_DRIVER = """
import sys
from acpt_estimator.v1.core.experiment import Experiment
from acpt_estimator.v1.core.workspace import Workspace
from acpt_estimator.v1.pipeline.core import Pipeline
from acpt_estimator.v1.pipeline.steps import PythonScriptStep
src = sys.argv[1]
steps = [PythonScriptStep("sleep.py", name=n, source_directory=src, compute_target="c", allow_reuse=False)
         for n in ("one", "two")]
run = Experiment(Workspace.from_config(), "interrupted").submit(Pipeline(None, steps))
print("RUN", run.id, flush=True)
run.wait_for_completion(show_output=True)
"""


def test_ctrl_c_on_the_driver_ends_every_step_of_the_pipeline(tmp_path):
    import signal
    import subprocess
    import sys
    import time
    import uuid

    from acpt_estimator.backends.local.procs import pids_with_env
    from acpt_estimator.pipelines.local import reopen

    (tmp_path / "driver.py").write_text(CTRL_C_DRIVER)
    marker = uuid.uuid4().hex
    env = dict(os.environ, ACPT_ESTIMATOR_TARGET="local", ACPT_ESTIMATOR_HOME=str(tmp_path / "store"),
               ACPT_TEST_MARKER=marker)
    driver = subprocess.Popen([sys.executable, "driver.py", os.path.abspath(SRC)], cwd=tmp_path, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines = [driver.stdout.readline()]
    deadline = time.monotonic() + 60
    while len(pids_with_env("ACPT_TEST_MARKER", marker)) < 4 and time.monotonic() < deadline:  # both steps run
        time.sleep(0.1)
    assert len(pids_with_env("ACPT_TEST_MARKER", marker)) >= 4
    driver.send_signal(signal.SIGINT)
    out, _ = driver.communicate(timeout=60)
    assert driver.returncode != 0, out
    assert pids_with_env("ACPT_TEST_MARKER", marker) == []
    run_id = lines[0].split()[1]
    pipeline = reopen(run_id, store_home=str(tmp_path / "store"))
    assert pipeline.get_status() == "Canceled"
    assert {state["status"] for state in pipeline.steps().values()} == {"Canceled"}
