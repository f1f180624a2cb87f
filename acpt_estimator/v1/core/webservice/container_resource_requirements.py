"""v1 ``azureml.core.webservice.container_resource_requirements``: refuses on use, naming managed online endpoints."""

from acpt_estimator.exceptions import WebserviceException  # noqa: F401
from acpt_estimator.v1.core.webservice.webservice import ContainerResourceRequirements  # noqa: F401

__all__ = ["ContainerResourceRequirements", "WebserviceException"]
