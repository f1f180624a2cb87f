"""Shim for ``azureml.train.hyperdrive``."""
from acpt_estimator.hyperdrive import *  # noqa: F401,F403
from acpt_estimator.hyperdrive import __all__  # noqa: F401
from acpt_estimator.exceptions import HyperDriveConfigException  # noqa: F401
