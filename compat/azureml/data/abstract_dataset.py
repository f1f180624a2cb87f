"""Shim for ``azureml.data.abstract_dataset``."""
from acpt_estimator.v1.data.abstract_dataset import *  # noqa: F401,F403
