"""Draw trial hyperparameters locally: random (seeded), grid (exhaustive), Bayesian (Optuna's TPE)."""

from __future__ import annotations

import itertools
import math
import random

from ..exceptions import HyperDriveConfigException


def _round_to(value: float, q: float):
    rounded = round(value / q) * q
    return int(rounded) if float(q).is_integer() and float(rounded).is_integer() else rounded


def draw(kind: str, args: list, rng: random.Random):
    """One value of a v1 expression, with v1's semantics (log-space bounds for loguniform, q-rounding)."""
    if kind == "choice":
        return rng.choice(args[0])
    if kind == "randint":
        return rng.randrange(args[0])
    if kind == "uniform":
        return rng.uniform(args[0], args[1])
    if kind == "quniform":
        return _round_to(rng.uniform(args[0], args[1]), args[2])
    if kind == "loguniform":
        return math.exp(rng.uniform(args[0], args[1]))
    if kind == "qloguniform":
        return _round_to(math.exp(rng.uniform(args[0], args[1])), args[2])
    if kind == "normal":
        return rng.gauss(args[0], args[1])
    if kind == "qnormal":
        return _round_to(rng.gauss(args[0], args[1]), args[2])
    if kind == "lognormal":
        return math.exp(rng.gauss(args[0], args[1]))
    if kind == "qlognormal":
        return _round_to(math.exp(rng.gauss(args[0], args[1])), args[2])
    raise HyperDriveConfigException(f"Unknown parameter expression {kind!r}.")


class RandomSampler:
    def __init__(self, space: dict, seed=None):
        self._space = space
        self._rng = random.Random(seed)

    def ask(self) -> dict | None:
        return {name: draw(expr[0], expr[1], self._rng) for name, expr in self._space.items()}

    def tell(self, params: dict, value) -> None:
        """Random sampling ignores results."""


class GridSampler:
    """Every combination of the choices, in order; ``ask`` returns None when the grid is exhausted."""

    def __init__(self, space: dict):
        names = list(space)
        self._combos = iter(itertools.product(*(space[n][1][0] for n in names)))
        self._names = names

    def ask(self) -> dict | None:
        combo = next(self._combos, None)
        return None if combo is None else dict(zip(self._names, combo))

    def tell(self, params: dict, value) -> None:
        """Grid sampling ignores results."""


class BayesianSampler:
    """Optuna's TPE through its ask/tell interface; each finished trial's best metric informs the next."""

    def __init__(self, space: dict, maximize: bool, seed=None):
        try:
            import optuna
        except ImportError:
            raise HyperDriveConfigException(
                "BayesianParameterSampling runs locally through Optuna, which is not installed. "
                "Install it with: pip install 'acpt-estimator[sweep]'") from None
        optuna.logging.set_verbosity(optuna.logging.WARNING)
        self._optuna = optuna
        self._study = optuna.create_study(direction="maximize" if maximize else "minimize",
                                          sampler=optuna.samplers.TPESampler(seed=seed))
        self._distributions = {name: self._distribution(expr) for name, expr in space.items()}
        self._open = {}

    def _distribution(self, expr):
        d = self._optuna.distributions
        kind, args = expr
        if kind == "choice":
            return d.CategoricalDistribution(args[0])
        if kind == "uniform":
            return d.FloatDistribution(args[0], args[1])
        low, high, q = args  # quniform: integers (checked by BayesianParameterSampling)
        return d.IntDistribution(low, high - (high - low) % q, step=q)

    def ask(self) -> dict | None:
        trial = self._study.ask(self._distributions)
        params = dict(trial.params)
        self._open[_key(params)] = trial
        return params

    def tell(self, params: dict, value) -> None:
        trial = self._open.pop(_key(params), None)
        if trial is None:
            return
        state = self._optuna.trial.TrialState
        if value is None:
            self._study.tell(trial, state=state.FAIL)
        else:
            self._study.tell(trial, float(value))


def _key(params: dict) -> tuple:
    return tuple(sorted((k, repr(v)) for k, v in params.items()))


def sampling_name(sampling) -> str | None:
    """v1's name of a sampling (``SAMPLING_NAME``: RANDOM, GRID, BayesianOptimization)."""
    return getattr(sampling, "SAMPLING_NAME", None)


def sampler_for(sampling, maximize: bool):
    space = sampling.parameter_space
    seed = sampling.properties.get("seed")
    if sampling_name(sampling) == "GRID":
        return GridSampler(space)
    if sampling_name(sampling) == "BayesianOptimization":
        return BayesianSampler(space, maximize, seed)
    return RandomSampler(space, seed)
