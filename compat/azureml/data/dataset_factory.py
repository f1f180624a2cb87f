"""Shim for ``azureml.data.dataset_factory``."""
from acpt_estimator.v1.data.dataset_factory import *  # noqa: F401,F403
