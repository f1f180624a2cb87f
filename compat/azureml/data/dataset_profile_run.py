"""Shim for ``azureml.data.dataset_profile_run``: re-exports ``acpt_estimator.v1.data.dataset_profile_run``."""
from acpt_estimator.v1.data.dataset_profile_run import *  # noqa: F401,F403
from acpt_estimator.v1.data.dataset_profile_run import __all__  # noqa: F401
