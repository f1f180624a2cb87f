"""Shim for ``azureml.train.hyperdrive.sampling``."""
from acpt_estimator.v1.train.hyperdrive.sampling import (BayesianParameterSampling, GridParameterSampling,  # noqa: F401
                                                         HyperParameterSampling, RandomParameterSampling)
