"""Shim for ``azureml.data.data_reference``: re-exports ``acpt_estimator.v1.data.data_reference``."""
from acpt_estimator.v1.data.data_reference import *  # noqa: F401,F403
