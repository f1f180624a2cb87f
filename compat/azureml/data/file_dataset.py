"""Shim for ``azureml.data.file_dataset``: re-exports ``acpt_estimator.v1.data.file_dataset``."""
from acpt_estimator.v1.data.file_dataset import *  # noqa: F401,F403
from acpt_estimator.v1.data.file_dataset import __dir__, __getattr__  # noqa: F401
