"""Shim for ``azureml.train.dnn``: re-exports ``acpt_estimator.v1.train.dnn``."""
from acpt_estimator.v1.train.dnn import *  # noqa: F401,F403
from acpt_estimator.v1.train.dnn import __all__, __dir__, __getattr__  # noqa: F401
