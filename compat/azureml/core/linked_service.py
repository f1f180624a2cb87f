"""Shim for ``azureml.core.linked_service``: re-exports ``acpt_estimator.v1.core.linked_service``."""
from acpt_estimator.v1.core.linked_service import *  # noqa: F401,F403
from acpt_estimator.v1.core.linked_service import __all__, __dir__, __getattr__  # noqa: F401
