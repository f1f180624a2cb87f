"""Shim for ``azureml.data.tabular_dataset``: re-exports ``acpt_estimator.v1.data.tabular_dataset``."""
from acpt_estimator.v1.data.tabular_dataset import *  # noqa: F401,F403
from acpt_estimator.v1.data.tabular_dataset import __dir__, __getattr__  # noqa: F401
