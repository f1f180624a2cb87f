"""Shim for ``azureml.core.compute.dsvm``: re-exports ``acpt_estimator.v1.core.compute.dsvm``."""
from acpt_estimator.v1.core.compute.dsvm import *  # noqa: F401,F403
from acpt_estimator.v1.core.compute.dsvm import __all__  # noqa: F401
