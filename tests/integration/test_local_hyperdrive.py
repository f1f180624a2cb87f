"""A local sweep: trials through the local runner, 2 at a time, a Bandit policy ending a dominated trial early."""

from __future__ import annotations

import json
import os
import time

import pytest

from acpt_estimator import PyTorch
from acpt_estimator.v1.core.experiment import Experiment
from acpt_estimator.v1.train.hyperdrive.policy import BanditPolicy, PrimaryMetricGoal
from acpt_estimator.v1.train.hyperdrive.sampling import GridParameterSampling, RandomParameterSampling
from acpt_estimator.v1.train.hyperdrive.runconfig import HyperDriveConfig
from acpt_estimator.v1.train.hyperdrive.parameter_expressions import choice, uniform
from acpt_estimator.v1.core.workspace import Workspace

pytestmark = pytest.mark.integration
SRC = os.path.join(os.path.dirname(__file__), os.pardir, "data", "sweep_src")


@pytest.fixture()
def experiment(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("ACPT_ESTIMATOR_HOME", str(tmp_path / ".acpt"))
    return Experiment(Workspace._local(), "sweep")


def test_grid_sweep_with_bandit_ends_dominated_trials_and_finds_the_optimum(experiment, capsys):
    estimator = PyTorch(SRC, compute_target="local", entry_script="objective.py", script_params={"--quality": 0.0})
    # Grid order is ascending, so each new trial dominates the ones still running beside it.
    qualities = [0.1, 0.2, 0.4, 0.8, 0.3, 0.6, 0.5, 0.7]
    config = HyperDriveConfig(
        estimator=estimator, hyperparameter_sampling=GridParameterSampling({"quality": choice(qualities)}),
        policy=BanditPolicy(slack_factor=0.1, evaluation_interval=1, delay_evaluation=2),
        primary_metric_name="accuracy", primary_metric_goal=PrimaryMetricGoal.MAXIMIZE,
        max_total_runs=8, max_concurrent_runs=2)
    hd_run = experiment.submit(config)
    details = hd_run.wait_for_completion(show_output=True)
    assert details["status"] == "Completed"
    assert "ended early by BanditPolicy" in capsys.readouterr().out

    children = list(hd_run.get_children())
    assert len(children) == 8
    stopped = hd_run.early_terminated()
    assert stopped, "the Bandit policy ended no trial"
    for child in children:
        steps = child.get_metrics("step").get("step")
        last_step = steps[-1] if isinstance(steps, list) else steps
        if child.id in stopped:
            assert child.get_status() == "Canceled"
            assert last_step is not None and last_step < 7, "an early-ended trial ran to its last step"
        else:
            assert child.get_status() == "Completed" and last_step == 7

    def best_of(child):
        value = child.get_metrics("accuracy")["accuracy"]
        return max(value) if isinstance(value, list) else value

    best = hd_run.get_best_run_by_primary_metric()
    assert best_of(best) == max(best_of(c) for c in children)
    assert hd_run.get_hyperparameters()[best.id] == '{"quality": 0.8}'  # v1: a JSON string
    rows = hd_run.get_children_sorted_by_primary_metric(top=3)
    assert rows[0]["run_id"] == best.id and rows[0]["best_primary_metric"] == pytest.approx(0.8)
    model = best.register_model("sweep-best", model_path="outputs/model.txt")
    assert model.version == 1 and open(model.path).read() == "quality=0.8\n"
    assert set(hd_run.get_metrics()) == {c.id for c in children}


def test_random_sweep_passes_sampled_values_and_can_be_canceled(experiment):
    estimator = PyTorch(SRC, compute_target="local", entry_script="objective.py",
                        script_params={"--steps": 40})
    config = HyperDriveConfig(
        estimator=estimator, hyperparameter_sampling=RandomParameterSampling({"quality": uniform(0.2, 0.4)},
                                                                             properties={"seed": 7}),
        primary_metric_name="accuracy", primary_metric_goal=PrimaryMetricGoal.MAXIMIZE, max_total_runs=4,
        max_concurrent_runs=2)
    hd_run = experiment.submit(config)
    deadline = time.time() + 30
    while time.time() < deadline and not any(c.get_metrics("accuracy") for c in hd_run.get_children()):
        time.sleep(0.2)
    hd_run.cancel()
    details = hd_run.wait_for_completion()
    assert details["status"] == "Canceled"
    children = list(hd_run.get_children())
    assert 1 <= len(children) <= 2 and all(c.get_status() == "Canceled" for c in children)
    logged = [c for c in children if c.get_metrics("accuracy")]
    assert logged, "no trial logged before the cancel"
    for child in logged:
        quality = json.loads(hd_run.get_hyperparameters()[child.id])["quality"]
        assert 0.2 <= quality <= 0.4
        first = child.get_metrics("accuracy")["accuracy"]
        first = first[0] if isinstance(first, list) else first
        assert first == pytest.approx(quality / 40)  # the sampled value reached the script as --quality
