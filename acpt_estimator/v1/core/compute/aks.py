"""v1 ``azureml.core.compute.aks``: AKS compute and its configurations; they refuse on use, naming the replacement."""

from acpt_estimator.exceptions import ComputeTargetException  # noqa: F401
from acpt_estimator.v1._no_equivalent import define
from acpt_estimator.v1.core.compute._attach import (  # noqa: F401
    ComputeTargetAttachConfiguration, ComputeTargetUpdateConfiguration)
from acpt_estimator.v1.core.compute._refused import AksCompute  # noqa: F401
from acpt_estimator.v1.core.compute.compute import ComputeTarget, ComputeTargetProvisioningConfiguration  # noqa: F401

__all__ = sorted(define(globals()) + ["AksCompute", "ComputeTarget", "ComputeTargetAttachConfiguration",
                                      "ComputeTargetException", "ComputeTargetProvisioningConfiguration",
                                      "ComputeTargetUpdateConfiguration"])
