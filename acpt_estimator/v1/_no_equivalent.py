"""v1 names with no equivalent here, as one table: each imports from its v1 module and refuses when used.

A v1 module's mirror calls ``define(globals())``: the names this table lists for it become classes (or functions)
that raise ``V1NotSupportedException`` naming the member, why, and the SDK v2 replacement (``_refusal``).
"""

from __future__ import annotations

from acpt_estimator.v1._refusal import REFUSAL_MARK, refuse, refused_class
from acpt_estimator.v1.data.abstract_dataset import _NO_CACHE as _DATACACHE

_DEPLOY = ("v1 deployed models as web services (ACI, AKS, local Docker) from images it built.",
           "SDK v2 managed online endpoints: azure.ai.ml.entities.ManagedOnlineEndpoint and ManagedOnlineDeployment "
           "(ml_client.online_endpoints.begin_create_or_update)")
_ATTACH = ("acpt-estimator submits training jobs to AmlCompute clusters and compute instances by name; attaching or "
           "updating other compute is done in SDK v2.",
           "ml_client.compute.begin_attach(...) / begin_update(...) with azure.ai.ml.entities compute objects, or "
           "`az ml compute attach`")
_DATABRICKS = ("Databricks runs (DatabricksStep and RunConfiguration.databricks) served v1 pipelines.",
               "run the notebook or job in Databricks, or a Spark job in SDK v2 (azure.ai.ml.spark)")
_NO_SQL = ("v2 datastores are storage only (Blob, File, Data Lake Gen2); databases and HDFS/DBFS became "
           "workspace connections or data copies.",
           "ml_client.datastores.create_or_update(AzureBlobDatastore/AzureDataLakeGen2Datastore(...)), or a "
           "workspace connection (ml_client.connections.create_or_update)")
_PROFILE = ("dataset profiles, snapshots and action runs were computed by a v1 service that v2 does not have.",
            "compute statistics in the job (pandas describe()), and version data with ml_client.data")
_DATAPREP = ("v1's dataprep engine (Dataflow, SQL data references, job-side mount context managers) is not part of "
             "SDK v2.", "mltable / pandas on a v2 data asset (ml_client.data), or Input(type='uri_folder') in jobs")
_FRAMEWORK = ("acpt-estimator translates PyTorch estimators; v1's other framework estimators have no curated "
              "environment in v2.", "Estimator(..., custom_docker_image=<an image with the framework>) or a v2 "
              "command job (azure.ai.ml.command) with that environment")
_HD_ERRORS = ("v1's hyperdrive error definitions fed its internal AzureMLError builder; acpt-estimator raises "
              "HyperDriveConfigException with the message.",
              "catch azureml.train.hyperdrive.exceptions.HyperDriveConfigException")
_TELEMETRY = ("v1's Application Insights telemetry client; acpt-estimator collects and sends no telemetry.",
              "the logging module (logging.getLogger(...)), or run.log / MLflow for metrics")
_PARALLEL = ("ParallelRunStep details belonged to v1 pipelines.",
             "SDK v2 parallel jobs (azure.ai.ml.parallel.parallel_run_function) shown in the studio")

# v1 module -> (why, replacement) and the names it defined that refuse; functions are marked "name()". A private
# module (``_attach``, ``_chainer``) holds the refusals of a module on the v1 import line, which resolves them lazily.
TABLE = {
    "azureml.core.webservice.webservice": (_DEPLOY, ["AutoScaler", "ContainerResourceRequirements", "DataCollection",
                                                     "LivenessProbeRequirements", "WebServiceAccessToken",
                                                     "WebserviceDeploymentConfiguration"]),
    "azureml.core.webservice.aci": (_DEPLOY, ["AciServiceDeploymentConfiguration", "EncryptionProperties",
                                              "VnetConfiguration"]),
    "azureml.core.webservice.aks": (_DEPLOY, ["AksEndpoint", "AksEndpointDeploymentConfiguration",
                                              "AksServiceAccessToken", "AksServiceDeploymentConfiguration"]),
    "azureml.core.webservice.local": (_DEPLOY, ["LocalWebserviceDeploymentConfiguration"]),
    "azureml.core.webservice.unknown_webservice": (_DEPLOY, ["UnknownWebservice"]),
    "azureml.core.image.image": (_DEPLOY, ["Asset", "ImageConfig", "TargetRuntime"]),
    "azureml.core.image.container": (_DEPLOY, ["ContainerImageConfig"]),
    "azureml.core.image.unknown_image": (_DEPLOY, ["UnknownImage"]),
    "azureml.core.profile": (_DEPLOY, ["ModelProfile"]),
    "azureml.core.resource_configuration": (_DEPLOY, ["ResourceConfiguration"]),
    "azureml.core.compute._attach": (_ATTACH, ["ComputeTargetAttachConfiguration",
                                               "ComputeTargetUpdateConfiguration"]),
    "azureml.core.compute.aks": (_ATTACH, ["AksAttachConfiguration", "AksProvisioningConfiguration",
                                           "AksUpdateConfiguration", "SslConfiguration", "SystemService"]),
    "azureml.core.compute.adla": (_ATTACH, ["DataLakeAnalyticsAttachConfiguration"]),
    "azureml.core.compute.batch": (_ATTACH, ["BatchAttachConfiguration"]),
    "azureml.core.compute.databricks": (_ATTACH, ["DatabricksAttachConfiguration"]),
    "azureml.core.compute.datafactory": (_ATTACH, ["DataFactoryAttachConfiguration",
                                                   "DataFactoryProvisioningConfiguration"]),
    "azureml.core.compute.dsvm": (_ATTACH, ["DsvmProvisioningConfiguration"]),
    "azureml.core.compute.hdinsight": (_ATTACH, ["HDInsightAttachConfiguration"]),
    "azureml.core.compute.kubernetescompute": (_ATTACH, ["KubernetesComputeAttachConfiguration",
                                                         "KubernetesComputeStatus"]),
    "azureml.core.compute.kusto": (_ATTACH, ["KustoAttachConfiguration"]),
    "azureml.core.compute.remote": (_ATTACH, ["RemoteComputeAttachConfiguration"]),
    "azureml.core.compute.synapse": (_ATTACH, ["SynapseAttachConfiguration"]),
    "azureml.core.databricks": (_DATABRICKS, ["DatabricksCluster", "DatabricksEnvironment", "DatabricksSection",
                                              "EggLibrary", "JarLibrary", "MavenLibrary", "PyPiLibrary",
                                              "RCranLibrary"]),
    "azureml.data.azure_data_lake_datastore": (_NO_SQL, ["AbstractADLSDatastore", "AzureDataLakeDatastore",
                                                         "AzureDataLakeGen2Datastore"]),
    "azureml.data.azure_my_sql_datastore": (_NO_SQL, ["AzureMySqlDatastore"]),
    "azureml.data.azure_postgre_sql_datastore": (_NO_SQL, ["AzurePostgreSqlDatastore"]),
    "azureml.data.azure_sql_database_datastore": (_NO_SQL, ["AzureSqlDatabaseDatastore"]),
    "azureml.data.dbfs_datastore": (_NO_SQL, ["DBFSDatastore"]),
    "azureml.data.hdfs_datastore": (_NO_SQL, ["HDFSDatastore"]),
    "azureml.data.datacache_consumption_config": (_DATACACHE, ["DatacacheConsumptionConfig"]),
    "azureml.data.datacache_singularity_settings": (_DATACACHE, ["DatacacheSingularitySettings"]),
    "azureml.data.dataset_action_run": (_PROFILE, ["DatasetActionRun"]),
    "azureml.data.dataset_profile": (_PROFILE, ["DatasetProfile"]),
    "azureml.data.dataset_profile_run": (_PROFILE, ["DatasetProfileRun"]),
    "azureml.data.dataset_profile_run_config": (_PROFILE, ["DatasetProfileRunConfig"]),
    "azureml.data.dataset_snapshot": (_PROFILE, ["DatasetSnapshot"]),
    "azureml.data.context_managers": (_DATAPREP, ["DatasetContextManager", "DatastoreContextManager"]),
    "azureml.data.dataset_definition": (_DATAPREP, ["Dataflow"]),
    "azureml.data.sql_data_reference": (_DATAPREP, ["SqlDataReference"]),
    "azureml.data.stored_procedure_parameter": (_DATAPREP, ["StoredProcedureParameter"]),
    "azureml.train.dnn._chainer": (_FRAMEWORK, ["Chainer"]),
    "azureml.train.sklearn": (_FRAMEWORK, ["SKLearn"]),
    "azureml.train.hyperdrive.error_definition": (_HD_ERRORS, [
        "DictValidationInvalidArgument", "DistributionValidationFailure", "HyperDriveNotImplemented",
        "HyperDriveRunCancellationError", "HyperDriveTrainingError", "InvalidComputeTarget", "InvalidConfigSetting",
        "InvalidKeyInDict", "InvalidRunHost", "InvalidType", "MissingChoiceValues", "RehydratePolicyNotFound",
        "RehydrateUnknownSampling", "ResumeChildRunsContainsDuplicate", "ResumeChildRunsFromTooManyParentRuns",
        "ResumeChildRunsNotInTerminalState", "ResumeChildRunsWithoutParentRun", "WarmStartRunsDontMatch"]),
    "azureml.train.hyperdrive.error_strings": (_HD_ERRORS, ["HyperDriveErrorStrings"]),
    "azureml.telemetry.contracts": (_TELEMETRY, ["Event", "ExtensionFields", "Metric", "RequiredFields",
                                                 "StandardFields", "TelemetryObjectBase"]),
    "azureml.telemetry.logger": (_TELEMETRY, ["AbstractEventLogger", "ApplicationInsightsEventLogger",
                                              "InMemoryEventLogger"]),
    "azureml.telemetry.loggers": (_TELEMETRY, ["Loggers"]),
    "azureml.telemetry.log_scope": (_TELEMETRY, ["LogScope", "context_scope()", "ctx_scope()"]),
    "azureml.widgets.parallel_run_step_details": (_PARALLEL, ["ParallelRunStepDetails"]),
}


def refused_function(name: str, why: str, replacement: str, module: str):
    """A v1 function with no equivalent: calling it refuses."""

    def function(*args, **kwargs):
        refuse(f"{name}()", why, replacement)

    function.__name__ = function.__qualname__ = name
    function.__module__ = module
    function.__doc__ = f"v1 ``{name}``: not supported. {why} Use instead: {replacement}"
    setattr(function, REFUSAL_MARK, True)
    return function


def define(namespace: dict) -> list:
    """Put the refusing names of the v1 module mirrored by ``namespace`` (a module's globals) into it."""
    module = namespace["__name__"]
    (why, replacement), names = TABLE["azureml." + module.removeprefix("acpt_estimator.v1.")]
    defined = []
    for entry in names:
        name = entry.removesuffix("()")
        make = refused_function if entry.endswith("()") else refused_class
        namespace[name] = make(name, why, replacement, module=module)
        defined.append(name)
    return defined
