"""Shim for ``azureml.train.hyperdrive.exceptions``: re-exports ``acpt_estimator.v1.train.hyperdrive.exceptions``."""
from acpt_estimator.v1.train.hyperdrive.exceptions import *  # noqa: F401,F403
from acpt_estimator.v1.train.hyperdrive.exceptions import __all__  # noqa: F401
