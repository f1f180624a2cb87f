"""v1 ``azureml.core.image``: image building for deployment, refused with the v2 replacement."""

from acpt_estimator.unsupported import ContainerImage, Image

__all__ = ["ContainerImage", "Image"]
