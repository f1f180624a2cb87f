"""Shim for ``azureml.train.hyperdrive.runconfig``."""
from acpt_estimator.v1.train.hyperdrive.runconfig import HyperDriveConfig, HyperDriveRunConfig, PrimaryMetricGoal  # noqa: F401
