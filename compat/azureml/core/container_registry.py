"""Shim for ``azureml.core.container_registry``."""
from acpt_estimator.v1.core.container_registry import ContainerRegistry, RegistryIdentity  # noqa: F401
