"""v1 ``azureml.core.image``: image building for deployment, refused with the v2 replacement."""

from acpt_estimator.unsupported import ContainerImage, Image
from acpt_estimator._lazy import lazy_names

__all__ = ["ContainerImage", "Image"]


# v1 names this module also exported, defined elsewhere: resolved on first use (v1-importable.json).
__getattr__, __dir__ = lazy_names(__name__, {
    "UnknownImage": "acpt_estimator.v1.core.image.unknown_image",
})
