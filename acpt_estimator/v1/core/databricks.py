"""v1 ``azureml.core.databricks``: run configurations' Databricks section; refuses on use, naming v2."""

from acpt_estimator.exceptions import UserErrorException  # noqa: F401
from acpt_estimator.v1._no_equivalent import define

__all__ = sorted(define(globals()) + ["UserErrorException"])
