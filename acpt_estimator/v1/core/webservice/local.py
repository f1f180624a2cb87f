"""v1 ``azureml.core.webservice.local``: local Docker web services; refuse on use, naming managed online endpoints."""

from acpt_estimator.exceptions import WebserviceException  # noqa: F401
from acpt_estimator.unsupported import InferenceConfig, LocalWebservice, Webservice  # noqa: F401
from acpt_estimator.v1._no_equivalent import define
from acpt_estimator.v1.core.image.container import ContainerImageConfig  # noqa: F401
from acpt_estimator.v1.core.model import Model  # noqa: F401
from acpt_estimator.v1.core.webservice.webservice import WebserviceDeploymentConfiguration  # noqa: F401

__all__ = sorted(define(globals()) + ["ContainerImageConfig", "InferenceConfig", "LocalWebservice", "Model",
                                      "Webservice", "WebserviceDeploymentConfiguration", "WebserviceException"])
