"""Shim for ``azureml.train.hyperdrive.run``: re-exports ``acpt_estimator.v1.train.hyperdrive.run``."""
from acpt_estimator.v1.train.hyperdrive.run import *  # noqa: F401,F403
from acpt_estimator.v1.train.hyperdrive.run import __dir__, __getattr__  # noqa: F401
