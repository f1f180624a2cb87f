"""Shim for ``azureml.train.sklearn``: re-exports ``acpt_estimator.v1.train.sklearn``."""
from acpt_estimator.v1.train.sklearn import *  # noqa: F401,F403
from acpt_estimator.v1.train.sklearn import __all__  # noqa: F401
