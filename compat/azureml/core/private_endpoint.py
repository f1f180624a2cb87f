"""Shim for ``azureml.core.private_endpoint``: re-exports ``acpt_estimator.v1.core.private_endpoint``."""
from acpt_estimator.v1.core.private_endpoint import *  # noqa: F401,F403
from acpt_estimator.v1.core.private_endpoint import __all__, __dir__, __getattr__  # noqa: F401
