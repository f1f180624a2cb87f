"""HyperDrive: v1 expressions, samplers and policies validate like v1 and translate to a valid v2 sweep."""

import os

import pytest
import yaml

from acpt_estimator import PyTorch
from acpt_estimator.backends.azureml.translate import job_to_yaml
from acpt_estimator.exceptions import HyperDriveConfigException
from acpt_estimator.v1.train.hyperdrive.policy import (BanditPolicy, MedianStoppingPolicy, PrimaryMetricGoal, TruncationSelectionPolicy)
from acpt_estimator.v1.train.hyperdrive.sampling import (BayesianParameterSampling, GridParameterSampling, RandomParameterSampling)
from acpt_estimator.v1.train.hyperdrive.runconfig import HyperDriveConfig
from acpt_estimator.v1.train.hyperdrive.parameter_expressions import (choice, loguniform, lognormal, normal, qloguniform, qlognormal, qnormal, quniform, randint, uniform)
from acpt_estimator.hyperdrive.sweep import early_termination, search_space, to_sweep_job

from .golden_cases import SRC


@pytest.mark.parametrize("expression, cls, fields", [
    (choice(0.01, 0.1), "Choice", {"values": [0.01, 0.1]}),
    (choice(range(3)), "Choice", {"values": [0, 1, 2]}),
    (randint(5), "Randint", {"upper": 5}),
    (uniform(0.1, 0.9), "Uniform", {"min_value": 0.1, "max_value": 0.9}),
    (quniform(1, 10, 2), "QUniform", {"min_value": 1, "max_value": 10, "q": 2}),
    (loguniform(-9.2, -2.3), "LogUniform", {"min_value": -9.2, "max_value": -2.3}),  # log-space bounds kept
    (qloguniform(0, 5, 1), "QLogUniform", {"min_value": 0, "max_value": 5, "q": 1}),
    (normal(0, 1), "Normal", {"mu": 0, "sigma": 1}),
    (qnormal(0, 1, 0.5), "QNormal", {"mu": 0, "sigma": 1, "q": 0.5}),
    (lognormal(0, 1), "LogNormal", {"mu": 0, "sigma": 1}),
    (qlognormal(0, 1, 2), "QLogNormal", {"mu": 0, "sigma": 1, "q": 2}),
])
def test_expression_maps_to_v2_class(expression, cls, fields):
    value = search_space({"p": expression})["p"]
    assert type(value).__name__ == cls
    assert {k: getattr(value, k) for k in fields} == fields


@pytest.mark.parametrize("make, words", [
    (lambda: choice(), "Please specify an input for choice"),
    (lambda: uniform(2, 1), "uniform expects min_value < max_value"),
    (lambda: normal(0, -1), "normal expects sigma >= 0"),
    (lambda: randint(0), "randint expects upper"),
    (lambda: GridParameterSampling({"lr": uniform(0, 1)}), "expects only the following distributions: [choice]"),
    (lambda: BayesianParameterSampling({"lr": normal(0, 1)}), "[choice, uniform, quniform]"),
    (lambda: BayesianParameterSampling({"a": choice("x", 1)}), "all strings or all non-strings"),
    (lambda: BayesianParameterSampling({"a": quniform(0.5, 3, 1)}), "quniform arguments to be integers"),
    (lambda: BanditPolicy(slack_factor=0.1, slack_amount=0.2), "exactly one of slack factor or slack amount"),
    (lambda: TruncationSelectionPolicy(100), "truncation_percentage to be an integer from 1 to 99"),
])
def test_v1_validation(make, words):
    with pytest.raises(HyperDriveConfigException) as info:
        make()
    assert words in info.value.message


def _estimator(**kwargs):
    return PyTorch(SRC, compute_target="gpu-cluster", entry_script="train.py", use_gpu=True, **kwargs)


def tuning_sample(policy=None):
    """The v1 tuning sample's shape (pytorch-hyperparameter tuning notebook)."""
    return HyperDriveConfig(
        estimator=_estimator(script_params={"--output_dir": "./outputs", "--learning_rate": 0.5}),
        hyperparameter_sampling=RandomParameterSampling({"learning_rate": uniform(0.0005, 0.005),
                                                         "momentum": uniform(0.9, 0.99)}),
        policy=policy or BanditPolicy(slack_factor=0.1, evaluation_interval=1, delay_evaluation=10),
        primary_metric_name="best_val_acc", primary_metric_goal=PrimaryMetricGoal.MAXIMIZE,
        max_total_runs=8, max_concurrent_runs=4)


def test_tuning_sample_sweep_validates_and_passes_both_parameters(tmp_path):
    from azure.ai.ml import load_job

    job = to_sweep_job(tuning_sample(), experiment_name="hd")
    command = job.trial.command
    assert "--learning_rate '${{search_space.learning_rate}}'" in command
    assert "--momentum '${{search_space.momentum}}'" in command
    assert command.count("--learning_rate") == 1  # the fixed script_param is overridden, not repeated
    assert (job.objective.goal, job.objective.primary_metric) == ("maximize", "best_val_acc")
    assert (job.limits.max_total_trials, job.limits.max_concurrent_trials) == (8, 4)
    policy = job.early_termination
    assert (policy.slack_factor, policy.evaluation_interval, policy.delay_evaluation) == (0.1, 1, 10)
    assert job.experiment_name == "hd"
    path = tmp_path / "sweep.yml"
    path.write_text(job_to_yaml(job))
    reloaded = load_job(str(path))
    assert reloaded.trial.command == command
    assert set(reloaded.search_space) == {"learning_rate", "momentum"}


def test_dashed_keys_reach_the_script_as_given():
    config = HyperDriveConfig(estimator=_estimator(), hyperparameter_sampling=GridParameterSampling(
        {"--numbers-in-sequence": choice(10, 20)}), primary_metric_name="loss",
        primary_metric_goal=PrimaryMetricGoal.MINIMIZE, max_total_runs=2)
    job = to_sweep_job(config, experiment_name="hd")
    assert "--numbers-in-sequence '${{search_space.numbers_in_sequence}}'" in job.trial.command
    assert job.sampling_algorithm == "grid"


def test_local_trial_spec_has_concrete_values():
    spec = tuning_sample().trial_spec("hd", values={"learning_rate": 0.001, "momentum": 0.95})
    assert [t.value for t in spec.arguments] == ["--output_dir", "./outputs", "--learning_rate", "0.001",
                                                 "--momentum", "0.95"]


@pytest.mark.parametrize("policy, kind", [(MedianStoppingPolicy(delay_evaluation=5), "MedianStoppingPolicy"),
                                          (TruncationSelectionPolicy(20), "TruncationSelectionPolicy")])
def test_policies_translate(policy, kind):
    assert type(early_termination(policy)).__name__ == kind


def test_config_rules():
    sampling = RandomParameterSampling({"lr": uniform(0, 1)})
    with pytest.raises(HyperDriveConfigException, match="at least one of estimator, run_config, pipeline"):
        HyperDriveConfig(sampling, "acc", PrimaryMetricGoal.MAXIMIZE, 4)
    with pytest.raises(AttributeError, match="PrimaryMetricGoal.MAXIMIZE"):  # v1 raised AttributeError for a str
        HyperDriveConfig(sampling, "acc", "maximize", 4, estimator=_estimator())
    with pytest.raises(HyperDriveConfigException, match="no early termination policy"):
        HyperDriveConfig(BayesianParameterSampling({"lr": uniform(0, 1)}), "acc", PrimaryMetricGoal.MAXIMIZE, 4,
                         estimator=_estimator(), policy=BanditPolicy(slack_factor=0.1))
    assert HyperDriveConfig(sampling, "acc", PrimaryMetricGoal.MAXIMIZE, 4, estimator=_estimator()) \
        ._max_concurrent_runs == 4


def test_sweep_golden(tmp_path):
    job = to_sweep_job(tuning_sample(), experiment_name="golden")
    data = yaml.safe_load(job_to_yaml(job))
    data["trial"]["code"] = "<source_directory>"
    path = os.path.join(os.path.dirname(__file__), os.pardir, "data", "golden", "sweep_tuning_sample.yml")
    if os.environ.get("ACPT_REGENERATE_GOLDEN") == "1":
        with open(path, "w") as handle:
            yaml.safe_dump(data, handle, sort_keys=False)
    with open(path) as handle:
        assert data == yaml.safe_load(handle)
