"""MLflow with a local workspace (issue 21): v1 code's mlflow.set_tracking_uri(ws.get_mlflow_tracking_uri()) gets
MLflow's SQLite store, runs started with mlflow.start_run() are runs of the experiment (v1 shapes), and MLflow
calls inside a local job land in the job's run. Real MLflow, real jobs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

pytestmark = pytest.mark.integration
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

DRIVER = textwrap.dedent("""
    import json, sys
    import mlflow
    from azureml.core import Experiment, ScriptRunConfig, Workspace

    ws = Workspace.from_config()
    mlflow.set_tracking_uri(ws.get_mlflow_tracking_uri())
    mlflow.set_experiment("mlflow-exp")
    with mlflow.start_run() as active:
        mlflow.log_metric("loss", 0.5)
        mlflow.log_metric("loss", 0.25, step=1)
        mlflow.log_metric("acc", 0.9)
        mlflow.set_tag("team", "vision")
        running = [r.get_status() for r in Experiment(ws, "mlflow-exp").get_runs()]
    exp = Experiment(ws, "mlflow-exp")
    job = exp.submit(ScriptRunConfig("src", script="train.py", compute_target="local"))
    job.wait_for_completion()
    runs = {r.id: {"status": r.get_status(), "metrics": r.get_metrics(), "tags": r.get_tags()}
            for r in exp.get_runs()}
    print(json.dumps({"driver_run": active.info.run_id, "running": running, "job": job.id, "runs": runs,
                      "job_mlflow": job._record()["mlflow"]["runId"], "by_id": ws.get_run(active.info.run_id).id}))
""")
TRAIN = textwrap.dedent("""
    import mlflow
    from azureml.core import Run
    Run.get_context().log("v1_metric", 1.0)
    mlflow.log_metric("mlflow_metric", 2.0)
    mlflow.log_metric("mlflow_metric", 3.0, step=1)
    print("ACTIVE", mlflow.active_run().info.run_id)
""")


def test_mlflow_runs_of_the_driver_and_of_jobs_are_runs_of_the_experiment(tmp_path):
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "train.py").write_text(TRAIN)
    (tmp_path / "driver.py").write_text(DRIVER)
    env = dict(os.environ, ACPT_ESTIMATOR_HOME=str(tmp_path / "store"), ACPT_ESTIMATOR_TARGET="local",
               PYTHONPATH=os.pathsep.join([REPO, os.path.join(REPO, "compat")]))
    env.pop("MLFLOW_TRACKING_URI", None)
    done = subprocess.run([sys.executable, "driver.py"], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    assert "MLFLOW_ALLOW_FILE_STORE" not in done.stderr  # MLflow 3.x takes the store without being told
    out = json.loads(done.stdout.strip().splitlines()[-1])
    driver_run, job = out["driver_run"], out["job"]
    assert out["running"] == ["Running"] and out["by_id"] == driver_run
    assert out["runs"][driver_run] == {"status": "Completed", "metrics": {"loss": [0.5, 0.25], "acc": 0.9},
                                       "tags": {"team": "vision"}}
    # In the job, MLflow's active run is the job's own MLflow run; both kinds of metrics read back.
    assert out["runs"][job]["status"] == "Completed"
    assert out["runs"][job]["metrics"] == {"v1_metric": 1.0, "mlflow_metric": [2.0, 3.0]}
    log = open(tmp_path / "store" / "runs" / job / "files" / "user_logs" / "std_log.txt").read()
    assert f"ACTIVE {out['job_mlflow']}" in log
    assert sorted(out["runs"]) == sorted([driver_run, job])


def test_a_job_using_mlflow_that_cannot_start_leaves_no_running_mlflow_run(tmp_path, monkeypatch):
    from mlflow.tracking import MlflowClient

    from acpt_estimator import ScriptRunConfig
    from acpt_estimator.exceptions import ExperimentExecutionException
    from acpt_estimator.v1.core.experiment import Experiment
    from acpt_estimator.v1.core.workspace import Workspace

    monkeypatch.setenv("ACPT_ESTIMATOR_HOME", str(tmp_path / "store"))
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "train.py").write_text(TRAIN)
    ws = Workspace._local()
    from acpt_estimator.backends.local import job as local_job

    def no_copy(*args):  # after the MLflow run is made (job._plan), while mpiexec starts
        raise ExperimentExecutionException("the snapshot could not be copied")

    monkeypatch.setattr(local_job, "copy_snapshot", no_copy)
    with pytest.raises(ExperimentExecutionException, match="could not be copied"):
        Experiment(ws, "broken").submit(ScriptRunConfig(str(tmp_path / "src"), script="train.py",
                                                        compute_target="local"))
    client = MlflowClient(ws.get_mlflow_tracking_uri())
    experiment = client.get_experiment_by_name("broken")
    assert client.search_runs([experiment.experiment_id]) == []  # created before the ranks ran, then deleted
    assert os.listdir(tmp_path / "store" / "runs") == []
