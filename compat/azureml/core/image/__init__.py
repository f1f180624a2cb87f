"""Shim for ``azureml.core.image``: re-exports ``acpt_estimator.v1.core.image``."""
from acpt_estimator.v1.core.image import *  # noqa: F401,F403
from acpt_estimator.v1.core.image import __all__, __dir__, __getattr__  # noqa: F401
