"""Shim for ``azureml.data.dataset_type_definitions``."""
from acpt_estimator.v1.data.dataset_type_definitions import *  # noqa: F401,F403
from acpt_estimator.v1.data.dataset_type_definitions import __all__  # noqa: F401
