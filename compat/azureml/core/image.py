"""Shim for ``azureml.core.image``: imports work; building images refuses, naming the v2 replacement."""
from acpt_estimator.unsupported import ContainerImage  # noqa: F401
