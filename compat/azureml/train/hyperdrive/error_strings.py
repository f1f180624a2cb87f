"""Shim for ``azureml.train.hyperdrive.error_strings``."""
from acpt_estimator.v1.train.hyperdrive.error_strings import *  # noqa: F401,F403
from acpt_estimator.v1.train.hyperdrive.error_strings import __all__  # noqa: F401
