"""v1 ``azureml.core.image.unknown_image``: deployment images; refuses on use, naming managed online endpoints."""

from acpt_estimator.unsupported import Image  # noqa: F401
from acpt_estimator.v1._no_equivalent import define

__all__ = sorted(define(globals()) + ["Image"])
