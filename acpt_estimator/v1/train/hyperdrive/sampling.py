"""v1 samplers: Random, Grid (choice only) and Bayesian (choice/uniform/quniform), with v1's restrictions."""

from __future__ import annotations

from acpt_estimator.exceptions import HyperDriveConfigException
from acpt_estimator.v1.train.hyperdrive.parameter_expressions import check_expression
from acpt_estimator._lazy import lazy_names


class HyperParameterSampling:
    """Base: a named parameter space plus sampler properties; ``to_json`` is v1's form."""

    SAMPLING_NAME = ""
    SUPPORTED = None  # expression kinds allowed, None = all

    def __init__(self, parameter_space, properties=None):
        if not isinstance(parameter_space, dict) or not parameter_space:
            raise HyperDriveConfigException(
                f"{type(self).__name__} expects parameter_space to be a non-empty dict of name -> expression. "
                f"Got {parameter_space!r}.")
        for name, expression in parameter_space.items():
            kind, args = check_expression(name, expression)
            if self.SUPPORTED is not None and kind not in self.SUPPORTED:
                raise HyperDriveConfigException(
                    f"This sampling method expects only the following distributions: [{', '.join(self.SUPPORTED)}]. "
                    f"parameter_space[{name!r}] is {kind}; use RandomParameterSampling for it.")
            self._check(name, kind, args)
        self._parameter_space = dict(parameter_space)
        self._properties = dict(properties or {})

    def _check(self, name, kind, args) -> None:
        """Sampler-specific rules; the base has none."""

    @property
    def parameter_space(self) -> dict:
        return dict(self._parameter_space)

    @property
    def properties(self) -> dict:
        return dict(self._properties)

    def to_json(self) -> dict:
        return {"name": self.SAMPLING_NAME, "parameter_space": self.parameter_space,
                **({"properties": self.properties} if self._properties else {})}


class RandomParameterSampling(HyperParameterSampling):
    SAMPLING_NAME = "RANDOM"


class GridParameterSampling(HyperParameterSampling):
    SAMPLING_NAME = "GRID"
    SUPPORTED = ("choice",)


class BayesianParameterSampling(HyperParameterSampling):
    SAMPLING_NAME = "BayesianOptimization"
    SUPPORTED = ("choice", "uniform", "quniform")

    def _check(self, name, kind, args) -> None:
        if kind == "choice":
            values = args[0]
            strings = [isinstance(v, str) for v in values]
            if any(strings) and not all(strings):
                raise HyperDriveConfigException(
                    f"BayesianParameterSampling expects choice values to be all strings or all non-strings. "
                    f"parameter_space[{name!r}] mixes them: {values!r}.")
        if kind == "quniform":
            low, high, q = args
            if not all(isinstance(v, int) and not isinstance(v, bool) for v in (low, high, q)):
                raise HyperDriveConfigException(
                    f"BayesianParameterSampling expects quniform arguments to be integers. "
                    f"parameter_space[{name!r}] is quniform({low!r}, {high!r}, {q!r}).")
            if (high - low) / q > 1e5:
                raise HyperDriveConfigException(
                    f"BayesianParameterSampling expects quniform to have at most 100000 points. "
                    f"parameter_space[{name!r}] has {(high - low) // q}; increase q.")


# v1 names this module also exported, defined elsewhere: resolved on first use (v1-importable.json).
__getattr__, __dir__ = lazy_names(__name__, {
    "scrubbed_data": "acpt_estimator.v1.train.hyperdrive.runconfig",
    **dict.fromkeys(["DictValidationInvalidArgument", "DistributionValidationFailure", "InvalidConfigSetting",
        "InvalidKeyInDict", "InvalidType", "RehydrateUnknownSampling"],
        "acpt_estimator.v1.train.hyperdrive.error_definition"),
    "HyperDriveConfigException": "acpt_estimator.exceptions",
    "HyperDriveRehydrateException": "acpt_estimator.v1.train.hyperdrive.exceptions",
})
