"""Shim for ``azureml.core.compute.batch``: re-exports ``acpt_estimator.v1.core.compute.batch``."""
from acpt_estimator.v1.core.compute.batch import *  # noqa: F401,F403
from acpt_estimator.v1.core.compute.batch import __all__  # noqa: F401
