"""Shim for ``azureml.train.hyperdrive``: re-exports ``acpt_estimator.v1.train.hyperdrive``."""
from acpt_estimator.v1.train.hyperdrive import *  # noqa: F401,F403
from acpt_estimator.v1.train.hyperdrive import __all__  # noqa: F401
