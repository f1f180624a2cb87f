"""Shim for ``azureml.data.dataset_profile_run_config``."""
from acpt_estimator.v1.data.dataset_profile_run_config import *  # noqa: F401,F403
from acpt_estimator.v1.data.dataset_profile_run_config import __all__  # noqa: F401
