"""Shim for ``azureml.train.hyperdrive.error_definition``."""
from acpt_estimator.v1.train.hyperdrive.error_definition import *  # noqa: F401,F403
from acpt_estimator.v1.train.hyperdrive.error_definition import __all__  # noqa: F401
