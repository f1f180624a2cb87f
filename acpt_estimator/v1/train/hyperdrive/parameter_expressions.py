"""v1 parameter expressions (``choice``, ``uniform``, ...): v1's JSON form, checked like v1."""

from __future__ import annotations

import math
import numbers

from acpt_estimator.exceptions import HyperDriveConfigException
from acpt_estimator._lazy import lazy_names


def _number(name: str, value, what: str):
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value):
        raise HyperDriveConfigException(f"{name} expects {what} to be a finite number. Got {what}={value!r}.")
    return value


def choice(*options):
    """``choice(1, 2, 3)``, ``choice([1, 2, 3])`` or ``choice(range(5))`` -> ``['choice', [[1, 2, 3]]]``."""
    if len(options) == 1 and isinstance(options[0], (list, tuple, range)):
        options = tuple(options[0])
    if not options:
        raise HyperDriveConfigException("Please specify an input for choice. e.g. choice(0.01, 0.1, 1.0)")
    return ["choice", [list(options)]]


def randint(upper):
    if isinstance(upper, bool) or not isinstance(upper, int) or upper < 1:
        raise HyperDriveConfigException(f"randint expects upper to be a positive integer. Got upper={upper!r}.")
    return ["randint", [upper]]


def _expression(name: str, first: tuple, second: tuple, q=None, rule=None):
    """``[name, [a, b(, q)]]`` after v1's checks: finite numbers, the pair ``rule`` (e.g. min < max), q > 0."""
    (a_name, a), (b_name, b) = first, second
    _number(name, a, a_name)
    _number(name, b, b_name)
    if rule is not None:
        rule(a, b)
    if q is None:
        return [name, [a, b]]
    _number(name, q, "q")
    if q <= 0:
        raise HyperDriveConfigException(f"{name} expects q > 0. Got q={q!r}.")
    return [name, [a, b, q]]


def _bounded(name: str, min_value, max_value, q=None):
    def ordered(low, high):
        if not low < high:
            raise HyperDriveConfigException(
                f"{name} expects min_value < max_value. Got min_value={low!r}, max_value={high!r}; swap them.")

    return _expression(name, ("min_value", min_value), ("max_value", max_value), q, ordered)


def _gaussian(name: str, mu, sigma, q=None):
    def spread(_, deviation):
        if deviation < 0:
            raise HyperDriveConfigException(f"{name} expects sigma >= 0. Got sigma={deviation!r}.")

    return _expression(name, ("mu", mu), ("sigma", sigma), q, spread)


def uniform(min_value, max_value):
    return _bounded("uniform", min_value, max_value)


def quniform(min_value, max_value, q):
    return _bounded("quniform", min_value, max_value, q)


def loguniform(min_value, max_value):
    """Samples exp(uniform(min_value, max_value)): the bounds are in log space, as in v1 and v2."""
    return _bounded("loguniform", min_value, max_value)


def qloguniform(min_value, max_value, q):
    return _bounded("qloguniform", min_value, max_value, q)


def normal(mu, sigma):
    return _gaussian("normal", mu, sigma)


def qnormal(mu, sigma, q):
    return _gaussian("qnormal", mu, sigma, q)


def lognormal(mu, sigma):
    return _gaussian("lognormal", mu, sigma)


def qlognormal(mu, sigma, q):
    return _gaussian("qlognormal", mu, sigma, q)


def check_expression(name: str, expression) -> tuple[str, list]:
    """(kind, arguments) of an expression; anything else is refused naming the parameter."""
    if (not isinstance(expression, (list, tuple)) or len(expression) != 2 or expression[0] not in KINDS
            or not isinstance(expression[1], list)):
        raise HyperDriveConfigException(
            f"parameter_space[{name!r}] expects a parameter expression such as choice(...) or uniform(...). "
            f"Got {expression!r}.")
    return expression[0], expression[1]


KINDS = ("choice", "randint", "uniform", "quniform", "loguniform", "qloguniform", "normal", "qnormal", "lognormal",
         "qlognormal")


# v1 names this module also exported, defined elsewhere: resolved on first use (v1-importable.json).
__getattr__, __dir__ = lazy_names(__name__, {
    **dict.fromkeys(["InvalidConfigSetting", "MissingChoiceValues"],
        "acpt_estimator.v1.train.hyperdrive.error_definition"),
    "HyperDriveConfigException": "acpt_estimator.exceptions",
})
