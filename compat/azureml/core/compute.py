"""Shim for ``azureml.core.compute``."""
from acpt_estimator.compute import (AmlCompute, AmlComputeProvisioningConfiguration, ComputeInstance,  # noqa: F401
                                    ComputeTarget)
