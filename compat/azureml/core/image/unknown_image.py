"""Shim for ``azureml.core.image.unknown_image``: re-exports ``acpt_estimator.v1.core.image.unknown_image``."""
from acpt_estimator.v1.core.image.unknown_image import *  # noqa: F401,F403
from acpt_estimator.v1.core.image.unknown_image import __all__  # noqa: F401
