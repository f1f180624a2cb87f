"""v1 ``azureml.core.resource_configuration``: deployment resources of a model; refuses on use."""

from acpt_estimator.exceptions import WebserviceException  # noqa: F401
from acpt_estimator.v1._no_equivalent import define

__all__ = sorted(define(globals()) + ["WebserviceException"])
