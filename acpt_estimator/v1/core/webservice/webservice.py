"""v1 ``azureml.core.webservice.webservice``: web services and settings; refuse on use, naming v2 endpoints."""

from acpt_estimator.exceptions import WebserviceException  # noqa: F401
from acpt_estimator.unsupported import Image, Webservice  # noqa: F401
from acpt_estimator.v1._no_equivalent import define
from acpt_estimator.v1.core.model import Model  # noqa: F401

__all__ = sorted(define(globals()) + ["Image", "Model", "Webservice", "WebserviceException"])
