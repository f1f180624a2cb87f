"""v1 ``azureml.core.image.container``: deployment images; refuse on use, naming managed online endpoints."""

from acpt_estimator.exceptions import WebserviceException  # noqa: F401
from acpt_estimator.unsupported import ContainerImage, Image  # noqa: F401
from acpt_estimator.v1._no_equivalent import define
from acpt_estimator.v1.core.container_registry import ContainerRegistry  # noqa: F401
from acpt_estimator.v1.core.image.image import Asset, ImageConfig, TargetRuntime  # noqa: F401

__all__ = sorted(define(globals()) + ["Asset", "ContainerImage", "ContainerRegistry", "Image", "ImageConfig",
                                      "TargetRuntime", "WebserviceException"])
