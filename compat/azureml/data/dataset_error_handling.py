"""Shim for ``azureml.data.dataset_error_handling``: re-exports ``acpt_estimator.v1.data.dataset_error_handling``."""
from acpt_estimator.v1.data.dataset_error_handling import *  # noqa: F401,F403
from acpt_estimator.v1.data.dataset_error_handling import __all__  # noqa: F401
