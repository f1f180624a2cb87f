"""Shim for ``azureml.train.hyperdrive.policy``."""
from acpt_estimator.v1.train.hyperdrive.policy import (BanditPolicy, EarlyTerminationPolicy,  # noqa: F401
                                                       MedianStoppingPolicy, NoTerminationPolicy, PrimaryMetricGoal,
                                                       TruncationSelectionPolicy)
