"""Shim for ``azureml.data.dataset_definition``: re-exports ``acpt_estimator.v1.data.dataset_definition``."""
from acpt_estimator.v1.data.dataset_definition import *  # noqa: F401,F403
from acpt_estimator.v1.data.dataset_definition import __all__  # noqa: F401
