"""Shim for ``azureml.data.abstract_dataset``: re-exports ``acpt_estimator.v1.data.abstract_dataset``."""
from acpt_estimator.v1.data.abstract_dataset import *  # noqa: F401,F403
from acpt_estimator.v1.data.abstract_dataset import __all__, __dir__, __getattr__  # noqa: F401
