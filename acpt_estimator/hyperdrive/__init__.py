"""v1 ``azureml.train.hyperdrive``: samplers, expressions, policies and HyperDriveConfig."""

from .config import HyperDriveConfig
from .expressions import (choice, loguniform, lognormal, normal, qloguniform, qlognormal, qnormal, quniform, randint,
                          uniform)
from .policy import (BanditPolicy, EarlyTerminationPolicy, MedianStoppingPolicy, NoTerminationPolicy,
                     PrimaryMetricGoal, TruncationSelectionPolicy)
from .sampling import (BayesianParameterSampling, GridParameterSampling, HyperParameterSampling,
                       RandomParameterSampling)

__all__ = sorted([
    "BanditPolicy", "BayesianParameterSampling", "EarlyTerminationPolicy", "GridParameterSampling", "HyperDriveConfig",
    "HyperParameterSampling", "MedianStoppingPolicy", "NoTerminationPolicy", "PrimaryMetricGoal",
    "RandomParameterSampling", "TruncationSelectionPolicy", "choice", "loguniform", "lognormal", "normal",
    "qloguniform", "qlognormal", "qnormal", "quniform", "randint", "uniform",
])
