"""Shim for ``azureml.core.image.image``: re-exports ``acpt_estimator.v1.core.image.image``."""
from acpt_estimator.v1.core.image.image import *  # noqa: F401,F403
from acpt_estimator.v1.core.image.image import __all__  # noqa: F401
