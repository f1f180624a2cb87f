"""v1 ``azureml.core.image.image``: deployment images; refuse on use, naming managed online endpoints."""

from acpt_estimator.exceptions import WebserviceException  # noqa: F401
from acpt_estimator.unsupported import Image  # noqa: F401
from acpt_estimator.v1._no_equivalent import define
from acpt_estimator.v1.core.model import Model  # noqa: F401

__all__ = sorted(define(globals()) + ["Image", "Model", "WebserviceException"])
