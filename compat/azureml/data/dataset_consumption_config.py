"""Shim for ``azureml.data.dataset_consumption_config``."""
from acpt_estimator.v1.data.dataset_consumption_config import *  # noqa: F401,F403
from acpt_estimator.v1.data.dataset_consumption_config import __dir__, __getattr__  # noqa: F401
