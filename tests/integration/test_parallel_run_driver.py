"""The ParallelRunStep driver run as a job runs it: real worker processes over file, tabular and partitioned
datasets of the local store, with v1's append_row file, logs, retries, timeouts and error thresholds."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from acpt_estimator.arguments import ArgumentBuilder
from acpt_estimator.backends.local.inputs import input_path
from acpt_estimator.job_runtime.acpt_datasets import DEFINITION_VAR
from acpt_estimator.v1.core.dataset import Dataset
from acpt_estimator.v1.core.model import Model
from tests.local_fixtures import local_workspace, write_files  # noqa: F401
from tests.parallel_run_fixtures import SCRIPTS, datastore  # noqa: F401

pytestmark = pytest.mark.integration


def driver_command(tmp_path, datasets: dict, *options, user_args=()) -> tuple[list, dict]:
    """The driver's command line and environment as a job runs it, in a copy of the scripts (the job's working
    folder, ``tmp_path/job``), writing to ``tmp_path/out``."""
    shutil.copytree(SCRIPTS, tmp_path / "job", dirs_exist_ok=True)
    builder, env, inputs = ArgumentBuilder(), dict(os.environ), []
    for name, dataset in datasets.items():
        builder.add_data(dataset.as_named_input(name))
        item = builder.inputs[name]
        env[DEFINITION_VAR + name] = item.definition
        inputs += ["--input", f"{name}={input_path(item, os.environ['ACPT_ESTIMATOR_HOME'])}"]
    return [sys.executable, "-m", "acpt_estimator.job_runtime.acpt_parallel.driver", *inputs, "--output",
            str(tmp_path / "out"), *options, "--", *user_args], env


def run_driver(tmp_path, datasets: dict, *options, user_args=()):
    """Run the driver to its end: (exit code, stdout and stderr, output folder)."""
    command, env = driver_command(tmp_path, datasets, *options, user_args=user_args)
    done = subprocess.run(command, cwd=tmp_path / "job", env=env, capture_output=True, text=True, timeout=120)
    return done.returncode, done.stdout + done.stderr, tmp_path / "out"


def test_file_dataset_append_row_across_nodes_and_processes(datastore, tmp_path):
    files = Dataset.File.from_files(path=(datastore, "raw/files/**"))
    code, output, out = run_driver(tmp_path, {"files": files}, "--entry_script", "score_files.py",
                                   "--mini_batch_size", "2", "--node_count", "2", "--process_count_per_node", "2",
                                   user_args=["--prefix", "p"])
    assert code == 0, output
    # one str() per returned element, mini-batches in order
    assert (out / "parallel_run_step.txt").read_text() == "".join(f"p:f{i}.txt:{i}\n" for i in range(1, 6))
    logs = tmp_path / "job" / "logs"
    assert (logs / "job_result.txt").read_text() == "Succeeded\n"
    entry_logs = list((logs / "user" / "entry_script_log").glob("*/process*.log.txt"))
    assert entry_logs and all("init with prefix p" in f.read_text() for f in entry_logs)
    assert "scoring 2 files" in "".join(f.read_text() for f in (logs / "user" / "stdout").glob("*/*.stdout.txt"))
    report = (logs / "sys" / "job_report" / "processed_mini-batches.csv").read_text().splitlines()
    assert len(report) == 4 and all(",succeeded," in line for line in report[1:])


def test_tabular_mini_batches_by_size_and_summary_only(datastore, tmp_path):
    table = Dataset.Tabular.from_delimited_files(path=(datastore, "raw/table/*.csv"))
    code, output, out = run_driver(tmp_path, {"rows": table}, "--entry_script", "score_table.py",
                                   "--mini_batch_size", "1KB", "--process_count_per_node", "2")
    assert code == 0, output
    # DataFrame rows space-separated, no header or index; a value with a space is quoted (pandas to_csv, as v1)
    assert (out / "parallel_run_step.txt").read_text() == '1 "a b" 2\n2 c 4\n3 d 6\n'
    # a mini-batch never crosses files: two files, two mini-batches
    assert "2 mini-batches" in output
    shutil.rmtree(out)
    code, output, out = run_driver(tmp_path, {"rows": table}, "--entry_script", "score_table.py",
                                   "--output_action", "summary_only")
    assert code == 0, output
    assert not (out / "parallel_run_step.txt").exists()


def test_partition_by_dataset_with_model_entry_script_and_context(datastore, local_workspace, tmp_path):
    """The v1 partition-per-column recipe: the output file is what v1 wrote (partition columns after the data
    columns, then the script's own column)."""
    oj = Dataset.Tabular.from_delimited_files(path=(datastore, "raw/oj/*.csv"))
    partitioned = oj.partition_by(partition_keys=["Store", "Brand"], target=(datastore, "partitioned"),
                                  name="oj_partitioned", show_progress=False)
    assert partitioned.partition_keys == ["Store", "Brand"]
    (tmp_path / "factor.txt").write_text("2")
    Model.register(local_workspace, model_path=str(tmp_path / "factor.txt"), model_name="income-factor")
    code, output, out = run_driver(tmp_path, {"oj": partitioned}, "--entry_script", "partition_income.py",
                                   "--partition_keys", json.dumps(["Store", "Brand"]),
                                   "--append_row_file_name", "revenue_outputs.txt", "--process_count_per_node", "2",
                                   user_args=["--model_name", "income-factor"])
    assert code == 0, output
    assert (out / "revenue_outputs.txt").read_text() == (
        "1990-06-14 200 10.5 2 dominicks 21.0\n"
        "1990-06-14 100 10.5 2 tropicana 42.0\n"
        "1990-06-21 70 10.5 2 tropicana 42.0\n"
        "1990-06-21 50 11.2 5 tropicana 22.4\n")
    logged = "".join(f.read_text() for f in (tmp_path / "job" / "logs" / "user" / "entry_script_log").rglob("*.txt"))
    assert "model income-factor gives factor 2.0" in logged
    assert "partition {'Store': 5, 'Brand': 'tropicana'}, mini-batch 2" in logged


def test_retries_timeouts_and_error_threshold(datastore, tmp_path, monkeypatch):
    monkeypatch.setenv("FLAKY_STATE", str(tmp_path) + os.sep)
    write_files(tmp_path / "flaky", {"a_ok.txt": "ok", "b_once.txt": "once", "c_raise.txt": "raise",
                                     "d_skip.txt": "skip", "e_hang.txt": "hang"})
    datastore.upload(str(tmp_path / "flaky"), target_path="flaky", show_progress=False)
    files = Dataset.File.from_files(path=(datastore, "flaky/**"))
    common = ("--entry_script", "flaky.py", "--mini_batch_size", "1", "--process_count_per_node", "2",
              "--run_invocation_timeout", "2", "--run_max_try", "2")
    code, output, out = run_driver(tmp_path, {"files": files}, *common, "--error_threshold", "-1")
    assert code == 0, output  # -1: failures are ignored
    # 'once' failed then succeeded on its second try; 'raise' and 'hang' failed twice; 'skip' returned nothing
    assert (out / "parallel_run_step.txt").read_text() == "a_ok.txt\nb_once.txt\n"
    errors = (tmp_path / "job" / "logs" / "job_error.txt").read_text()
    assert "RuntimeError: first try fails" in errors and "cannot score c_raise.txt" in errors
    assert "run_invocation_timeout=2 s" in errors
    report = (tmp_path / "job" / "logs" / "sys" / "job_report" / "processed_mini-batches.csv").read_text()
    assert report.count(",failed,") == 2
    shutil.rmtree(out)
    code, output, out = run_driver(tmp_path, {"files": files}, *common, "--error_threshold", "1")
    assert code == 42 and "more than error_threshold=1" in output
    assert (tmp_path / "job" / "logs" / "job_result.txt").read_text().startswith("Failed: ")
    assert not (out / "parallel_run_step.txt").exists()


def test_bad_partition_keys_fail_before_any_worker(datastore, tmp_path):
    files = Dataset.File.from_files(path=(datastore, "raw/files/**"))
    code, output, _ = run_driver(tmp_path, {"files": files}, "--entry_script", "score_files.py",
                                 "--partition_keys", '["Store"]')
    assert code == 42 and "partition_keys ['Store'] must be partition keys of every input" in output


def test_parallel_run_step_as_a_local_job(datastore, local_workspace):
    """A v1 ParallelRunStep built into its StepSpec and run by the local backend (one driver rank, 2 x 2 worker
    processes), with a PipelineParameter for mini_batch_size given a new value at submit."""
    from acpt_estimator.backends.local.run import submit as start  # the LocalRun handle of a started job
    from acpt_estimator.pipelines.kinds.parallel import local_job
    from acpt_estimator.pipelines.spec import StepBuildContext
    from acpt_estimator.v1.core.environment import Environment
    from acpt_estimator.v1.core.experiment import Experiment
    from acpt_estimator.v1.pipeline.core.builder import PipelineData
    from acpt_estimator.v1.pipeline.core.graph import PipelineParameter
    from acpt_estimator.v1.pipeline.steps import ParallelRunConfig, ParallelRunStep

    files = Dataset.File.from_files(path=(datastore, "raw/files/**"))
    config = ParallelRunConfig(environment=Environment("batch"), entry_script="score_files.py",
                               source_directory=SCRIPTS, mini_batch_size=PipelineParameter("batch_size", "1"),
                               error_threshold=0, output_action="append_row", compute_target="cpu-cluster",
                               node_count=2, process_count_per_node=2)
    scores = PipelineData("scores", datastore=datastore)
    step = ParallelRunStep("score-files", config, inputs=[files.as_named_input("files")], output=scores,
                           arguments=["--prefix", "q"])
    spec = step._to_step_spec(StepBuildContext(node_name="score_files", producers={"scores": "score_files"}))
    assert spec.kind == "parallel" and spec.parallel.input_names == ("files",)
    run = start(local_job(spec, spec.job, {"batch_size": "2"}), Experiment(local_workspace, "prs"))
    details = run.wait_for_completion()
    assert details["status"] == "Completed", run.get_details_with_logs()
    written = os.path.join(os.environ["ACPT_ESTIMATOR_HOME"], "datastores", datastore.name, "azureml", run.id,
                           "scores", "parallel_run_step.txt")
    assert open(written).read() == "".join(f"q:f{i}.txt:{i}\n" for i in range(1, 6))
    assert "job_result.txt" in " ".join(run.get_file_names())


V2_RUNTIME_STAND_IN = """
import importlib.util, json, os, sys
sys.argv = ["amlbi_main.py"] + json.loads(os.environ["PROGRAM_ARGUMENTS"])
spec = importlib.util.spec_from_file_location("entry", os.environ["ENTRY"])
entry = importlib.util.module_from_spec(spec)
spec.loader.exec_module(entry)
entry.init()
out = []
for batch in json.loads(os.environ["BATCHES"]):
    out.append(entry.run(batch).to_csv(sep=" ", header=False, index=False, lineterminator="\\n"))
print("".join(out), end="")
"""


def test_v2_adapter_runs_the_v1_entry_script(datastore, local_workspace, tmp_path):
    """The v2 node's code (snapshot + adapter) driven as v2's parallel runtime drives an entry script: init() once,
    run(list of files) per mini-batch; the v1 script gets DataFrames and mini_batch_context, as locally."""
    from acpt_estimator.job_runtime import RUNTIME_DIR
    from acpt_estimator.pipelines.kinds.parallel_v2 import ADAPTER, stage_code

    oj = Dataset.Tabular.from_delimited_files(path=(datastore, "raw/oj/*.csv"))
    partitioned = oj.partition_by(partition_keys=["Store", "Brand"], target=(datastore, "partitioned"),
                                  show_progress=False)
    (tmp_path / "factor.txt").write_text("2")
    Model.register(local_workspace, model_path=str(tmp_path / "factor.txt"), model_name="income-factor")
    builder = ArgumentBuilder()
    builder.add_data(partitioned.as_named_input("oj"))
    item = builder.inputs["oj"]
    folder = input_path(item, os.environ["ACPT_ESTIMATOR_HOME"])
    files = sorted(os.path.join(root, f) for root, _, names in os.walk(folder) for f in names)
    code = stage_code(SCRIPTS, str(tmp_path / "staged"))
    env = dict(os.environ, ENTRY=os.path.join(code, ADAPTER), BATCHES=json.dumps([[f] for f in files]),
               PYTHONPATH=RUNTIME_DIR,  # stands in for v2's own azureml_user package
               PROGRAM_ARGUMENTS=json.dumps(["--acpt_entry_script", "partition_income.py", "--acpt_input_name", "oj",
                                             "--acpt_input_path", folder, "--acpt_partition_keys",
                                             '["Store", "Brand"]', "--model_name", "income-factor"]),
               **{DEFINITION_VAR + "oj": item.definition})
    done = subprocess.run([sys.executable, "-c", V2_RUNTIME_STAND_IN], cwd=code, env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout == ("1990-06-14 200 10.5 2 dominicks 21.0\n1990-06-14 100 10.5 2 tropicana 42.0\n"
                           "1990-06-21 70 10.5 2 tropicana 42.0\n1990-06-21 50 11.2 5 tropicana 22.4\n")


def test_init_failing_in_every_worker_fails_the_step(datastore, tmp_path):
    files = Dataset.File.from_files(path=(datastore, "raw/files/**"))
    code, output, _ = run_driver(tmp_path, {"files": files}, "--entry_script", "bad_init.py",
                                 "--process_count_per_node", "2")
    assert code == 42 and "init() failed 3 times in every worker" in output
    assert "RuntimeError: no model here" in (tmp_path / "job" / "logs" / "job_error.txt").read_text()


def test_a_worker_still_in_init_when_the_step_is_done_finishes_init(datastore, tmp_path):
    # both mini-batches are scored by process000 while process001 is still in init(); v1 ran init() once in every
    # worker, so the step ends after it, not in the middle of it (no torn log, no half-done side effect)
    files = Dataset.File.from_files(path=[(datastore, "raw/files/f1.txt"), (datastore, "raw/files/f2.txt")])
    code, output, out = run_driver(tmp_path, {"files": files}, "--entry_script", "slow_init.py",
                                   "--mini_batch_size", "1", "--process_count_per_node", "2")
    assert code == 0, output
    assert (out / "parallel_run_step.txt").read_text() == "1\n1\n"
    report = (tmp_path / "job" / "logs" / "sys" / "job_report" / "processed_mini-batches.csv").read_text()
    assert report.count(",process000,") == 2  # process001 scored nothing: it was still in init()
    logs = sorted((tmp_path / "job" / "logs" / "user" / "entry_script_log" / "0").glob("process*.log.txt"))
    assert [f.name for f in logs] == ["process000.log.txt", "process001.log.txt"]
    assert all("init done" in f.read_text() for f in logs)


def test_sigterm_ends_the_driver_and_every_worker(datastore, tmp_path, monkeypatch):
    monkeypatch.setenv("FLAKY_STATE", str(tmp_path) + os.sep)
    write_files(tmp_path / "hang", {f"h{i}.txt": "hang" for i in range(3)})
    datastore.upload(str(tmp_path / "hang"), target_path="hang", show_progress=False)
    token = f"acpt-prs-sigterm-{os.getpid()}"
    command, env = driver_command(tmp_path, {"files": Dataset.File.from_files(path=(datastore, "hang/**"))},
                                  "--entry_script", "flaky.py", "--mini_batch_size", "1",
                                  "--process_count_per_node", "3", user_args=[token])
    _terminate_when(command, env, tmp_path, token, workers=3)  # three workers inside run()


def test_sigterm_while_a_worker_finishes_init_ends_it_too(datastore, tmp_path, monkeypatch):
    # the step is done and the driver waits for process001's init(): a SIGTERM then must not leave it behind
    monkeypatch.setenv("SLOW_INIT_SECONDS", "120")
    token = f"acpt-prs-sigterm-init-{os.getpid()}"
    files = Dataset.File.from_files(path=[(datastore, "raw/files/f1.txt"), (datastore, "raw/files/f2.txt")])
    command, env = driver_command(tmp_path, {"files": files}, "--entry_script", "slow_init.py", "--mini_batch_size",
                                  "1", "--process_count_per_node", "2", user_args=[token])
    log = tmp_path / "job" / "logs" / "user" / "entry_script_log" / "0" / "process000.log.txt"
    # both mini-batches scored by process000; the driver hears of it within microseconds, then waits for init()
    code = _terminate_when(command, env, tmp_path, token, workers=1, settle=1.0,
                           ready=lambda: log.exists() and log.read_text().count("scored 1") == 2)
    assert code == 128 + 15


def _terminate_when(command, env, tmp_path, token: str, workers: int, ready=lambda: True, settle=0.0) -> int:
    """Start the driver, send it SIGTERM ``settle`` seconds after ``workers`` of its workers are alive and ``ready()``,
    then check that it ends and no worker outlives it; its exit code."""
    import signal
    import time

    proc = subprocess.Popen(command, cwd=tmp_path / "job", env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not (_processes_with(token) >= workers and ready()):
        time.sleep(0.1)
    assert _processes_with(token) >= workers and ready()
    time.sleep(settle)
    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=30)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and _processes_with(token):
        time.sleep(0.1)
    assert _processes_with(token) == 0
    return proc.returncode


def _processes_with(token: str) -> int:
    """Worker processes alive whose command line holds ``token``."""
    count = 0
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as handle:
                argv = handle.read().split(b"\0")
        except OSError:
            continue  # it ended meanwhile
        count += token.encode() in argv and b"acpt_parallel.worker" in argv
    return count
