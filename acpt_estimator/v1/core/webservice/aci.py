"""v1 ``azureml.core.webservice.aci``: ACI web services; refuse on use, naming managed online endpoints."""

from acpt_estimator.exceptions import WebserviceException  # noqa: F401
from acpt_estimator.unsupported import AciWebservice, Image, Webservice  # noqa: F401
from acpt_estimator.v1._no_equivalent import define
from acpt_estimator.v1.core.environment import Environment  # noqa: F401
from acpt_estimator.v1.core.model import Model  # noqa: F401
from acpt_estimator.v1.core.webservice.webservice import (  # noqa: F401
    ContainerResourceRequirements, WebserviceDeploymentConfiguration)

__all__ = sorted(define(globals()) + ["AciWebservice", "ContainerResourceRequirements", "Environment", "Image", "Model",
                                      "Webservice", "WebserviceDeploymentConfiguration", "WebserviceException"])
