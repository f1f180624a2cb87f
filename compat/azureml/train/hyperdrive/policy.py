"""Shim for ``azureml.train.hyperdrive.policy``: re-exports ``acpt_estimator.v1.train.hyperdrive.policy``."""
from acpt_estimator.v1.train.hyperdrive.policy import *  # noqa: F401,F403
from acpt_estimator.v1.train.hyperdrive.policy import __dir__, __getattr__  # noqa: F401
