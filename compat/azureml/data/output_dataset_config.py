"""Shim for ``azureml.data.output_dataset_config``."""
from acpt_estimator.v1.data.output_dataset_config import *  # noqa: F401,F403
