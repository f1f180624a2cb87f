"""v1 ``azureml.core.compute``: compute targets (laid out in v1's files: compute, amlcompute, computeinstance)."""

from acpt_estimator.v1.core.compute._refused import (AdlaCompute, AksCompute, BatchCompute, DatabricksCompute,
                                                     DataFactoryCompute, DsvmCompute, HDInsightCompute,
                                                     KubernetesCompute, KustoCompute, RemoteCompute, SynapseCompute)
from acpt_estimator.v1.core.compute.amlcompute import AmlCompute, AmlComputeProvisioningConfiguration
from acpt_estimator.v1.core.compute.compute import ComputeTarget
from acpt_estimator.v1.core.compute.computeinstance import ComputeInstance, ComputeInstanceProvisioningConfiguration

__all__ = sorted(["AdlaCompute", "AksCompute", "AmlCompute", "AmlComputeProvisioningConfiguration", "BatchCompute",
                  "ComputeInstance", "ComputeInstanceProvisioningConfiguration", "ComputeTarget", "DataFactoryCompute",
                  "DatabricksCompute", "DsvmCompute", "HDInsightCompute", "KubernetesCompute", "KustoCompute",
                  "RemoteCompute", "SynapseCompute"])
