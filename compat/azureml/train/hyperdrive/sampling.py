"""Shim for ``azureml.train.hyperdrive.sampling``: re-exports ``acpt_estimator.v1.train.hyperdrive.sampling``."""
from acpt_estimator.v1.train.hyperdrive.sampling import *  # noqa: F401,F403
from acpt_estimator.v1.train.hyperdrive.sampling import __dir__, __getattr__  # noqa: F401
