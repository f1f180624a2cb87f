"""Shim for ``azureml.train.hyperdrive.parameter_expressions``."""
from acpt_estimator.v1.train.hyperdrive.parameter_expressions import (choice, lognormal, loguniform, normal,  # noqa: F401
                                                                      qlognormal, qloguniform, qnormal, quniform,
                                                                      randint, uniform)
