"""HyperDriveConfig submitted to Azure ML: one v2 sweep job; trials read back like v1's HyperDriveRun."""

from __future__ import annotations

import pytest

from acpt_estimator import PyTorch
from acpt_estimator.v1.core.experiment import Experiment
from acpt_estimator.v1.train.hyperdrive.policy import BanditPolicy, PrimaryMetricGoal
from acpt_estimator.v1.train.hyperdrive.runconfig import HyperDriveConfig
from acpt_estimator.v1.train.hyperdrive.sampling import RandomParameterSampling
from acpt_estimator.v1.train.hyperdrive.parameter_expressions import choice, uniform
from tests.fake_aml import JobScript
from tests.fake_aml.fixtures import *  # noqa: F401,F403

pytestmark = pytest.mark.integration


def test_sweep_job_and_best_trial(fake_aml, cloud_workspace, make_project, capsys):
    est = PyTorch(make_project(), entry_script="train.py", compute_target="gpu-cluster", use_gpu=True,
                  script_params={"--epochs": 5, "--learning_rate": 0.1})
    config = HyperDriveConfig(RandomParameterSampling({"learning_rate": uniform(0.001, 0.1),
                                                       "--batch-size": choice(16, 32)}),
                              "val_acc", PrimaryMetricGoal.MAXIMIZE, max_total_runs=3, max_concurrent_runs=2,
                              policy=BanditPolicy(slack_factor=0.1), estimator=est)
    trials = tuple(({"learning_rate": lr}, JobScript(states=("Completed",), metrics={"val_acc": accs}))
                   for lr, accs in ((0.01, [0.5, 0.7]), (0.05, [0.9, 0.6]), (0.09, [0.8])))
    fake_aml.script_next_job(JobScript(states=("Running", "Completed"), children=trials,
                                       trial_tag_prefix=""))  # as older runs were tagged: <sweep>_<n>

    run = Experiment(cloud_workspace, "hd").submit(config)

    body = [r for r in fake_aml.calls("PUT", r"/jobs/[^/]+$")][0].json()["properties"]
    assert body["jobType"] == "Sweep" and body["objective"] == {"goal": "maximize", "primaryMetric": "val_acc"}
    assert set(body["searchSpace"]) == {"learning_rate", "batch_size"}
    assert body["limits"]["maxTotalTrials"] == 3 and body["limits"]["maxConcurrentTrials"] == 2
    assert body["earlyTermination"]["policyType"] == "Bandit"
    assert run.type == "hyperdrive"
    assert run.wait_for_completion(show_output=True)["status"] == "Completed"
    out = capsys.readouterr().out  # the sweep's own log, as jobs.stream shows it
    assert "Streaming azureml-logs/hyperdrive.txt" in out and "[hyperdrive] Sweep completed" in out

    assert sorted(run.get_metrics().values(), key=str) == [{"val_acc": 0.8}, {"val_acc": [0.5, 0.7]},
                                                          {"val_acc": [0.9, 0.6]}]
    best = run.get_best_run_by_primary_metric()
    assert best.id == f"{run.id}_1"  # max over each trial's values: 0.9 beats 0.8 and 0.7
    rows = run.get_children_sorted_by_primary_metric(top=2)
    assert [(r["run_id"][-2:], r["best_primary_metric"]) for r in rows] == [("_1", 0.9), ("_2", 0.8)]
    assert run.get_hyperparameters()[f"{run.id}_0"] == '{"learning_rate": 0.01}'
    # The service records them on the sweep run (tag <sweep>_<n>), not on the trial; a reopened sweep reads them too.
    assert "hyperparameters" not in best.properties and run.get_tags()[f"{run.id}_1"] == '{"learning_rate": 0.05}'
    from acpt_estimator.v1.core.run import Run
    from acpt_estimator.v1.train.hyperdrive.run import HyperDriveRun

    reopened = Run.get(cloud_workspace, run.id)
    assert isinstance(reopened, HyperDriveRun) and reopened.hyperdrive_config is None
    assert reopened.get_hyperparameters() == run.get_hyperparameters()
    assert rows[0]["hyperparameters"] == '{"learning_rate": 0.05}' and best.parent.id == run.id
    # The common notebook line: the best trial's arguments, with the value the sweep gave it.
    arguments = best.get_details()["runDefinition"]["arguments"]
    assert arguments[arguments.index("--learning_rate") + 1] == "0.05" and "--epochs" in arguments


def _sweep(fake_aml, cloud_workspace, make_project):
    """A sweep over '--learning-rate' and '--batch-size' (v2 names: learning_rate, batch_size), three trials
    tagged as the current service tags them (``_aml_system_<trial>``, values under the v2 names)."""
    est = PyTorch(make_project(), entry_script="train.py", compute_target="gpu-cluster")
    config = HyperDriveConfig(RandomParameterSampling({"--learning-rate": uniform(0.001, 0.1),
                                                       "--batch-size": choice(16, 32)}),
                              "loss", PrimaryMetricGoal.MINIMIZE, max_total_runs=3, estimator=est)
    trials = tuple(({"learning_rate": lr, "batch_size": bs}, JobScript(states=("Completed",),
                                                                        metrics={"loss": losses}))
                   for lr, bs, losses in ((0.01, 16, [0.5, 0.4]), (0.05, 32, [0.9, 0.2]), (0.09, 16, [0.3])))
    fake_aml.script_next_job(JobScript(states=("Running", "Completed"), children=trials))
    return Experiment(cloud_workspace, "hd-names").submit(config)


def test_trial_values_read_back_under_the_v1_argument_names(fake_aml, cloud_workspace, make_project):
    run = _sweep(fake_aml, cloud_workspace, make_project)
    run.wait_for_completion()
    assert run.get_hyperparameters()[f"{run.id}_1"] == '{"--learning-rate": 0.05, "--batch-size": 32}'
    best = run.get_best_run_by_primary_metric()
    assert best.id == f"{run.id}_1"  # min over each trial's values: 0.2
    arguments = best.get_details()["runDefinition"]["arguments"]
    assert arguments[arguments.index("--learning-rate") + 1] == "0.05"
    assert arguments[arguments.index("--batch-size") + 1] == "32"


def test_a_reattached_sweep_answers_from_the_jobs_own_objective(fake_aml, cloud_workspace, make_project):
    from acpt_estimator.v1.core.run import Run

    run = _sweep(fake_aml, cloud_workspace, make_project)
    run.wait_for_completion()
    reopened = Run.get(cloud_workspace, run.id)  # no HyperDriveConfig in memory: yesterday's sweep
    assert reopened.hyperdrive_config is None
    assert reopened.get_best_run_by_primary_metric().id == f"{run.id}_1"  # minimize, from the sweep's objective
    rows = reopened.get_children_sorted_by_primary_metric()
    assert [(r["run_id"][-2:], r["best_primary_metric"]) for r in rows] == [("_1", 0.2), ("_2", 0.3), ("_0", 0.4)]
    assert reopened.get_hyperparameters() == run.get_hyperparameters()
    listed = [r for r in Experiment(cloud_workspace, "hd-names").get_runs() if r.id == run.id]
    assert listed and listed[0].get_best_run_by_primary_metric().id == f"{run.id}_1"
