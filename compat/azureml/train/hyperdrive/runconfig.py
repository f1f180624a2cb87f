"""Shim for ``azureml.train.hyperdrive.runconfig``: re-exports ``acpt_estimator.v1.train.hyperdrive.runconfig``."""
from acpt_estimator.v1.train.hyperdrive.runconfig import *  # noqa: F401,F403
from acpt_estimator.v1.train.hyperdrive.runconfig import __dir__, __getattr__  # noqa: F401
