"""v1 ``azureml.core.compute.kusto``: Kusto compute; refuses on use, naming the replacement."""

from acpt_estimator.exceptions import ComputeTargetException  # noqa: F401
from acpt_estimator.v1._no_equivalent import define
from acpt_estimator.v1.core.compute._attach import ComputeTargetAttachConfiguration  # noqa: F401
from acpt_estimator.v1.core.compute._refused import KustoCompute  # noqa: F401
from acpt_estimator.v1.core.compute.compute import ComputeTarget  # noqa: F401

__all__ = sorted(define(globals()) + ["ComputeTarget", "ComputeTargetAttachConfiguration", "ComputeTargetException",
                                      "KustoCompute"])
