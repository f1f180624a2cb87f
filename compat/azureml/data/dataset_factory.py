"""Shim for ``azureml.data.dataset_factory``: re-exports ``acpt_estimator.v1.data.dataset_factory``."""
from acpt_estimator.v1.data.dataset_factory import *  # noqa: F401,F403
from acpt_estimator.v1.data.dataset_factory import __all__, __dir__, __getattr__  # noqa: F401
