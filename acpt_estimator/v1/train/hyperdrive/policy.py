"""v1 early-termination policies and ``PrimaryMetricGoal``."""

from __future__ import annotations

import enum

from acpt_estimator.exceptions import HyperDriveConfigException
from acpt_estimator._lazy import lazy_names


class PrimaryMetricGoal(enum.Enum):
    MAXIMIZE = "MAXIMIZE"
    MINIMIZE = "MINIMIZE"


def _positive_int(cls_name: str, name: str, value, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise HyperDriveConfigException(
            f"{cls_name} expects {name} to be an integer >= {minimum}. Got {name}={value!r}.")
    return value


class EarlyTerminationPolicy:
    """Base: evaluate every ``evaluation_interval`` reports, after ``delay_evaluation`` reports."""

    POLICY_NAME = ""

    def __init__(self, evaluation_interval=1, delay_evaluation=0):
        name = type(self).__name__
        self.evaluation_interval = _positive_int(name, "evaluation_interval", evaluation_interval, 1)
        self.delay_evaluation = _positive_int(name, "delay_evaluation", delay_evaluation, 0)

    @property
    def properties(self) -> dict:
        return {"evaluation_interval": self.evaluation_interval, "delay_evaluation": self.delay_evaluation}

    def to_json(self) -> dict:
        return {"name": self.POLICY_NAME, "properties": self.properties}


class NoTerminationPolicy(EarlyTerminationPolicy):
    POLICY_NAME = "Default"

    def to_json(self) -> dict:
        return {"name": self.POLICY_NAME}


class BanditPolicy(EarlyTerminationPolicy):
    """End trials whose metric is not within the slack of the best so far."""

    POLICY_NAME = "Bandit"

    def __init__(self, evaluation_interval=1, slack_factor=None, slack_amount=None, delay_evaluation=0):
        super().__init__(evaluation_interval, delay_evaluation)
        if (slack_factor is None) == (slack_amount is None):
            raise HyperDriveConfigException(
                "Bandit termination policy expects exactly one of slack factor or slack amount to be set. "
                f"Got slack_factor={slack_factor!r}, slack_amount={slack_amount!r}.")
        for name, value in (("slack_factor", slack_factor), ("slack_amount", slack_amount)):
            if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0):
                raise HyperDriveConfigException(f"BanditPolicy expects {name} > 0. Got {name}={value!r}.")
        self.slack_factor = slack_factor
        self.slack_amount = slack_amount

    @property
    def properties(self) -> dict:
        props = super().properties
        props["slack_factor" if self.slack_factor is not None else "slack_amount"] = (
            self.slack_factor if self.slack_factor is not None else self.slack_amount)
        return props


class MedianStoppingPolicy(EarlyTerminationPolicy):
    """End trials whose best metric is worse than the median of the running averages of all trials."""

    POLICY_NAME = "MedianStopping"


class TruncationSelectionPolicy(EarlyTerminationPolicy):
    """End the worst ``truncation_percentage`` % of trials at each evaluation."""

    POLICY_NAME = "TruncationSelection"

    def __init__(self, truncation_percentage, evaluation_interval=1, delay_evaluation=0):
        super().__init__(evaluation_interval, delay_evaluation)
        if isinstance(truncation_percentage, bool) or not isinstance(truncation_percentage, int) \
                or not 1 <= truncation_percentage <= 99:
            raise HyperDriveConfigException(
                "TruncationSelectionPolicy expects truncation_percentage to be an integer from 1 to 99. "
                f"Got truncation_percentage={truncation_percentage!r}.")
        self.truncation_percentage = truncation_percentage

    @property
    def properties(self) -> dict:
        props = super().properties
        props.update({"truncation_percentage": self.truncation_percentage, "exclude_finished_jobs": False})
        return props


# v1 names this module also exported, defined elsewhere: resolved on first use (v1-importable.json).
__getattr__, __dir__ = lazy_names(__name__, {
    "scrubbed_data": "acpt_estimator.v1.train.hyperdrive.runconfig",
    **dict.fromkeys(["DictValidationInvalidArgument", "InvalidConfigSetting", "InvalidKeyInDict", "InvalidType",
        "RehydratePolicyNotFound"], "acpt_estimator.v1.train.hyperdrive.error_definition"),
    "HyperDriveConfigException": "acpt_estimator.exceptions",
    "HyperDriveRehydrateException": "acpt_estimator.v1.train.hyperdrive.exceptions",
})
