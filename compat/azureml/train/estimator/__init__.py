"""Shim for ``azureml.train.estimator``: re-exports ``acpt_estimator.v1.train.estimator``."""
from acpt_estimator.v1.train.estimator import *  # noqa: F401,F403
from acpt_estimator.v1.train.estimator import __all__, __dir__, __getattr__  # noqa: F401
