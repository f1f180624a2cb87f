"""v1 ``azureml.core.compute``: compute targets."""

from acpt_estimator.v1.core.compute.compute import (AmlCompute, AmlComputeProvisioningConfiguration, ComputeInstance,
                                                    ComputeTarget)

__all__ = ["AmlCompute", "AmlComputeProvisioningConfiguration", "ComputeInstance", "ComputeTarget"]
