"""Shim for ``azureml.core.resource_configuration``: re-exports ``acpt_estimator.v1.core.resource_configuration``."""
from acpt_estimator.v1.core.resource_configuration import *  # noqa: F401,F403
from acpt_estimator.v1.core.resource_configuration import __all__  # noqa: F401
