"""v1 ``azureml.train.hyperdrive``: samplers, expressions, policies and HyperDriveConfig."""

from acpt_estimator.exceptions import HyperDriveConfigException
from acpt_estimator.v1.train.hyperdrive.parameter_expressions import (choice, loguniform, lognormal, normal,
                                                                      qloguniform, qlognormal, qnormal, quniform,
                                                                      randint, uniform)
from acpt_estimator.v1.train.hyperdrive.policy import (BanditPolicy, EarlyTerminationPolicy, MedianStoppingPolicy,
                                                       NoTerminationPolicy, PrimaryMetricGoal,
                                                       TruncationSelectionPolicy)
from acpt_estimator.v1.train.hyperdrive.run import HyperDriveRun
from acpt_estimator.v1.train.hyperdrive.runconfig import HyperDriveConfig, HyperDriveRunConfig
from acpt_estimator.v1.train.hyperdrive.sampling import (BayesianParameterSampling, GridParameterSampling,
                                                         HyperParameterSampling, RandomParameterSampling)

__all__ = sorted([
    "BanditPolicy", "BayesianParameterSampling", "EarlyTerminationPolicy", "GridParameterSampling", "HyperDriveConfig",
    "HyperDriveConfigException", "HyperDriveRun", "HyperDriveRunConfig", "HyperParameterSampling", "MedianStoppingPolicy",
    "NoTerminationPolicy",
    "PrimaryMetricGoal", "RandomParameterSampling", "TruncationSelectionPolicy", "choice", "loguniform", "lognormal",
    "normal", "qloguniform", "qlognormal", "qnormal", "quniform", "randint", "uniform",
])
