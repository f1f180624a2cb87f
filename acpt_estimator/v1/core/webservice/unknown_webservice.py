"""v1 ``azureml.core.webservice.unknown_webservice``: refuses on use, naming managed online endpoints."""

from acpt_estimator.unsupported import Webservice  # noqa: F401
from acpt_estimator.v1._no_equivalent import define

__all__ = sorted(define(globals()) + ["Webservice"])
