"""Shim for ``azureml.core.image.container``: re-exports ``acpt_estimator.v1.core.image.container``."""
from acpt_estimator.v1.core.image.container import *  # noqa: F401,F403
from acpt_estimator.v1.core.image.container import __all__  # noqa: F401
