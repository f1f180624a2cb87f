"""Shim for ``azureml.train.estimator``."""
from acpt_estimator.estimator import Estimator  # noqa: F401
