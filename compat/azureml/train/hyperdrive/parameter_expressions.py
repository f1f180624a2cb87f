"""Shim for ``azureml.train.hyperdrive.parameter_expressions``."""
from acpt_estimator.v1.train.hyperdrive.parameter_expressions import *  # noqa: F401,F403
from acpt_estimator.v1.train.hyperdrive.parameter_expressions import __dir__, __getattr__  # noqa: F401
