"""v1 ``azureml.core.compute.dsvm``: DSVM compute (retired in v1); refuses on use, naming the replacement."""

from acpt_estimator.exceptions import ComputeTargetException  # noqa: F401
from acpt_estimator.v1._no_equivalent import define
from acpt_estimator.v1.core.compute._refused import DsvmCompute  # noqa: F401
from acpt_estimator.v1.core.compute.compute import ComputeTarget, ComputeTargetProvisioningConfiguration  # noqa: F401

__all__ = sorted(define(globals()) + ["ComputeTarget", "ComputeTargetException",
                                      "ComputeTargetProvisioningConfiguration", "DsvmCompute"])
