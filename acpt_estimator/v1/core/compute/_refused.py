"""v1 compute types with no v2 training counterpart here: they import, and refuse on use naming what replaces them."""

from acpt_estimator.v1._refusal import refused_class

_ATTACH = "v1 attached this compute for pipelines or deployment; acpt-estimator submits training jobs to AmlCompute."
_GONE = "Azure ML v2 has no such compute type."


def _compute(name: str, why: str, replacement: str) -> type:
    return refused_class(name, why, replacement, module="acpt_estimator.v1.core.compute")


AksCompute = _compute("AksCompute", "AKS compute served v1 web services.",
                      "managed online endpoints (ml_client.online_endpoints), or attach AKS as KubernetesCompute "
                      "(`az ml compute attach --type Kubernetes`)")
KubernetesCompute = _compute("KubernetesCompute", "v1's Arc/Kubernetes attach objects differ from v2's.",
                             "azure.ai.ml.entities.KubernetesCompute with ml_client.compute.begin_attach, or "
                             "`az ml compute attach --type Kubernetes`")
RemoteCompute = _compute("RemoteCompute", "v1 ran jobs over SSH on an attached VM.",
                         "azure.ai.ml.entities.VirtualMachineCompute with ml_client.compute.begin_attach, or "
                         "`az ml compute attach --type virtualmachine`")
DsvmCompute = _compute("DsvmCompute", "DSVM compute was retired in v1 already.",
                       "AmlCompute.provisioning_configuration(...) clusters, or a compute instance")
HDInsightCompute = _compute("HDInsightCompute", _ATTACH, "Spark jobs on serverless Spark or SynapseSparkCompute "
                            "(azure.ai.ml.spark, ml_client.compute.begin_attach)")
SynapseCompute = _compute("SynapseCompute", _ATTACH, "azure.ai.ml.entities.SynapseSparkCompute with "
                          "ml_client.compute.begin_attach, or serverless Spark (azure.ai.ml.spark)")
DatabricksCompute = _compute("DatabricksCompute", _ATTACH, "run Databricks jobs from Databricks, or use Spark jobs "
                             "in v2 (azure.ai.ml.spark)")
DataFactoryCompute = _compute("DataFactoryCompute", _ATTACH, "Azure Data Factory pipelines outside Azure ML, or v2 "
                              "pipelines (azure.ai.ml.dsl.pipeline)")
AdlaCompute = _compute("AdlaCompute", "Data Lake Analytics is retired. " + _GONE,
                       "Spark jobs in v2 (azure.ai.ml.spark)")
BatchCompute = _compute("BatchCompute", _ATTACH, "AmlCompute clusters (AmlCompute.provisioning_configuration)")
KustoCompute = _compute("KustoCompute", _ATTACH, "query Kusto from the job (azure-kusto-data), or v2 pipelines")

__all__ = sorted(["AdlaCompute", "AksCompute", "BatchCompute", "DataFactoryCompute", "DatabricksCompute",
                  "DsvmCompute", "HDInsightCompute", "KubernetesCompute", "KustoCompute", "RemoteCompute",
                  "SynapseCompute"])
