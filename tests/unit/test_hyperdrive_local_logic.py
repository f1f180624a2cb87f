"""Pure parts of local sweeps: drawing hyperparameters and the early-termination rules."""

import math
import random


from acpt_estimator.v1.train.hyperdrive.policy import (BanditPolicy, MedianStoppingPolicy, NoTerminationPolicy, TruncationSelectionPolicy)
from acpt_estimator.v1.train.hyperdrive.sampling import (BayesianParameterSampling, GridParameterSampling, RandomParameterSampling)
from acpt_estimator.v1.train.hyperdrive.parameter_expressions import choice, loguniform, quniform, uniform
from acpt_estimator.hyperdrive.early_termination import should_stop
from acpt_estimator.hyperdrive.samplers import draw, sampler_for


def test_random_sampling_is_seeded_and_in_range():
    sampling = RandomParameterSampling({"lr": loguniform(-6, -1), "bs": choice(16, 32), "q": quniform(0, 10, 2)},
                                       properties={"seed": 3})
    first = [sampler_for(sampling, True).ask() for _ in range(2)]
    assert first[0] == first[1]  # same seed, same draw
    for params in (sampler_for(sampling, True).ask() for _ in range(20)):
        assert math.exp(-6) <= params["lr"] <= math.exp(-1)  # log-space bounds, as v1
        assert params["bs"] in (16, 32) and params["q"] in (0, 2, 4, 6, 8, 10)


def test_grid_is_exhaustive_then_ends():
    sampler = sampler_for(GridParameterSampling({"a": choice(1, 2), "b": choice("x", "y")}), True)
    combos = [sampler.ask() for _ in range(5)]
    assert combos[:4] == [{"a": 1, "b": "x"}, {"a": 1, "b": "y"}, {"a": 2, "b": "x"}, {"a": 2, "b": "y"}]
    assert combos[4] is None


def test_bayesian_uses_optuna_and_learns():
    sampler = sampler_for(BayesianParameterSampling({"x": uniform(-4, 4)}, properties={"seed": 1}), False)
    values = []
    for _ in range(30):
        params = sampler.ask()
        values.append(params["x"])
        sampler.tell(params, (params["x"] - 1.5) ** 2)
    assert min(abs(v - 1.5) for v in values[-10:]) < 0.5  # TPE concentrates near the minimum


def test_draw_quantises():
    rng = random.Random(0)
    assert all(draw("quniform", [0, 1, 0.25], rng) in (0, 0.25, 0.5, 0.75, 1.0) for _ in range(20))


def test_bandit_slack_factor_and_delay():
    policy = BanditPolicy(slack_factor=0.1, evaluation_interval=1, delay_evaluation=2)
    best = [0.2, 0.4, 0.6, 0.8]
    assert should_stop(policy, [0.1, 0.2], [best], True) is None  # still within the delay
    assert should_stop(policy, [0.1, 0.2, 0.3], [best], True) == 3
    assert should_stop(policy, [0.19, 0.38, 0.56], [best], True) is None  # 0.56 >= 0.6 / 1.1
    assert should_stop(policy, [0.1, 0.2, 0.3], [best], True, after=3) is None  # never judged twice


def test_bandit_slack_amount_minimize():
    policy = BanditPolicy(slack_amount=0.5, evaluation_interval=2)
    assert should_stop(policy, [3.0, 2.6], [[3.0, 2.0]], False) == 2
    assert should_stop(policy, [3.0, 2.4], [[3.0, 2.0]], False) is None


def test_bandit_ignores_peers_that_have_not_reached_the_report():
    policy = BanditPolicy(slack_factor=0.1)
    assert should_stop(policy, [0.1, 0.1, 0.1], [[0.9]], True) == 1
    assert should_stop(policy, [0.1, 0.1, 0.1], [[0.9]], True, after=1) is None


def test_median_stopping():
    policy = MedianStoppingPolicy(evaluation_interval=1, delay_evaluation=1)
    peers = [[0.5, 0.6], [0.6, 0.7], [0.7, 0.8]]
    assert should_stop(policy, [0.1, 0.2], peers, True) == 2
    assert should_stop(policy, [0.7, 0.9], peers, True) is None


def test_truncation_selection():
    policy = TruncationSelectionPolicy(truncation_percentage=25)
    peers = [[0.5], [0.6], [0.7]]
    assert should_stop(policy, [0.1], peers, True) == 1
    assert should_stop(policy, [0.65], peers, True) is None


def test_no_termination():
    assert should_stop(NoTerminationPolicy(), [0.0] * 5, [[1.0] * 5], True) is None
