"""v1 ``azureml.core.webservice.aks``: AKS web services; refuse on use, naming managed online endpoints."""

from acpt_estimator.exceptions import WebserviceException  # noqa: F401
from acpt_estimator.unsupported import AksWebservice, Image, Webservice  # noqa: F401
from acpt_estimator.v1._no_equivalent import define
from acpt_estimator.v1.core.compute.compute import ComputeTarget  # noqa: F401
from acpt_estimator.v1.core.environment import Environment  # noqa: F401
from acpt_estimator.v1.core.model import Model  # noqa: F401
from acpt_estimator.v1.core.webservice.webservice import (  # noqa: F401
    AutoScaler, ContainerResourceRequirements, DataCollection, LivenessProbeRequirements, WebServiceAccessToken,
    WebserviceDeploymentConfiguration)

__all__ = sorted(define(globals()) + ["AksWebservice", "AutoScaler", "ComputeTarget", "ContainerResourceRequirements",
                                      "DataCollection", "Environment", "Image", "LivenessProbeRequirements", "Model",
                                      "WebServiceAccessToken", "Webservice", "WebserviceDeploymentConfiguration",
                                      "WebserviceException"])
