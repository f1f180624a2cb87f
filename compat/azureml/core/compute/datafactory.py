"""Shim for ``azureml.core.compute.datafactory``: re-exports ``acpt_estimator.v1.core.compute.datafactory``."""
from acpt_estimator.v1.core.compute.datafactory import *  # noqa: F401,F403
from acpt_estimator.v1.core.compute.datafactory import __all__  # noqa: F401
