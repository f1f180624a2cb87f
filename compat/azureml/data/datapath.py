"""Shim for ``azureml.data.datapath``: re-exports ``acpt_estimator.v1.data.datapath``."""
from acpt_estimator.v1.data.datapath import *  # noqa: F401,F403
from acpt_estimator.v1.data.datapath import __dir__, __getattr__  # noqa: F401
