"""Shim for ``azureml.train.hyperdrive.run``."""
from acpt_estimator.v1.train.hyperdrive.run import HyperDriveRun  # noqa: F401
