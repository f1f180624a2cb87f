"""Shim for ``azureml.data.dataset_profile``: re-exports ``acpt_estimator.v1.data.dataset_profile``."""
from acpt_estimator.v1.data.dataset_profile import *  # noqa: F401,F403
from acpt_estimator.v1.data.dataset_profile import __all__  # noqa: F401
