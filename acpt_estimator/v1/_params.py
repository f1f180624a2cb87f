"""v1 parameters with no v2 equivalent: refused before anything is created, or warned about, never swallowed.

``PARAMS[(member, parameter)] = (v1's default, 'refuse' | 'warn', why, what v2 does or offers instead)``. A value
equal to the default (what v1 did when the caller said nothing) passes silently; any other value is refused (the
setting matters: encryption, networking, identity, resuming) or warned about once (v2 has no such knob, and doing
without it changes nothing the caller relies on). Each entry has its own test (tests/unit/test_v1_params.py).
"""

from __future__ import annotations

import warnings

from acpt_estimator.v1._refusal import refuse

_WS_V2 = "ml_client.workspaces.begin_create(azure.ai.ml.entities.Workspace(...))"
_READ = ("the rows would be read differently: Dataset.Tabular's readers have no such option.",)
_DEPLOY = "v2 model assets keep no deployment metadata; deployments take it."
_SCHEMA = "a deployment's scoring script with a schema (inference-schema) on a ManagedOnlineDeployment"
_RESOURCES = "ManagedOnlineDeployment(instance_type=...) or KubernetesOnlineDeployment(resources=...)"
_NO_CONTAINER = ("v2 registers a datastore for an existing container and never creates one.",
                 "create it first (az storage container create / BlobServiceClient.create_container), then register")
PARAMS = {
    # Workspace.create: security settings are refused rather than giving a workspace without them.
    ("Workspace.create", "adb_workspace"): (None, "refuse", "v2 workspaces do not link Azure Databricks workspaces.",
                                            "an Azure Databricks connection or the Databricks MLflow integration"),
    ("Workspace.create", "private_endpoint_config"): (
        None, "refuse", "azure-ai-ml creates no private endpoint with the workspace (the workspace would be public).",
        f"{_WS_V2} with public_network_access='Disabled', then az network private-endpoint create"),
    ("Workspace.create", "private_endpoint_auto_approval"): (
        True, "refuse", "it only applies to a private endpoint made with the workspace, which v2 does not make.",
        "az network private-endpoint create --manual-request false"),
    ("Workspace.create", "user_assigned_identity_for_cmk_encryption"): (
        None, "refuse", "azure-ai-ml's CustomerManagedKey takes no identity for the key.",
        "az ml workspace create --file workspace.yml (customer_managed_key with an identity) or an ARM template"),
    ("Workspace.create", "default_cpu_compute_target"): (
        None, "refuse", "v2 workspaces are created without compute.",
        "ml_client.compute.begin_create_or_update(AmlCompute(name=..., size=..., max_instances=...))"),
    ("Workspace.create", "default_gpu_compute_target"): (
        None, "refuse", "v2 workspaces are created without compute.",
        "ml_client.compute.begin_create_or_update(AmlCompute(name=..., size=..., max_instances=...))"),
    ("Workspace.create", "v1_legacy_mode"): (
        None, "refuse", "azure-ai-ml's Workspace has no v1 legacy mode setting.",
        "az ml workspace update --name <ws> --v1-legacy-mode true|false"),
    ("Workspace.create", "sku"): ("basic", "warn", "v2 workspaces have one edition; sku is not sent.",
                                  "nothing to change: every v2 workspace has the former enterprise features"),
    ("Workspace.create", "create_resource_group"): (
        True, "warn", "azure-ai-ml never creates resource groups.",
        "create it first (az group create); a missing one is named in the service's error"),
    # Workspace.update
    ("Workspace.update", "service_managed_resources_settings"): (
        None, "refuse", "azure-ai-ml's workspace update has no service-managed resource settings.",
        "az ml workspace update or an ARM template"),
    ("Workspace.update", "primary_user_assigned_identity"): (
        None, "refuse", "this update sends only display name, description, tags and image build compute.",
        "ml_client.workspaces.begin_update(Workspace(name=..., primary_user_assigned_identity=...))"),
    ("Workspace.update", "allow_public_access_when_behind_vnet"): (
        None, "refuse", "this update sends no network settings.",
        "ml_client.workspaces.begin_update(Workspace(name=..., public_network_access='Enabled'|'Disabled'))"),
    ("Workspace.update", "v1_legacy_mode"): (None, "refuse", "azure-ai-ml's Workspace has no v1 legacy mode setting.",
                                             "az ml workspace update --name <ws> --v1-legacy-mode true|false"),
    # HyperDriveConfig: a warm start would silently become a cold one.
    ("HyperDriveConfig", "resume_from"): (
        None, "refuse", "v2 sweep jobs cannot warm-start from earlier sweeps.",
        "a new sweep whose search_space is narrowed around the best runs of the earlier one"),
    ("HyperDriveConfig", "resume_child_runs"): (
        None, "refuse", "v2 sweep jobs cannot resume earlier trials.", "resubmit the trials as new jobs"),
    ("HyperDriveConfig", "custom_run_id"): (
        None, "refuse", "the sweep's id is chosen at submit (v1 run id form).",
        "command(...).sweep(...) with name='<id>' in azure-ai-ml, or read run.id after submit"),
    ("HyperDriveConfig", "debug_flag"): (None, "warn", "v2 sweeps have no debug flag; it is not sent.",
                                         "nothing: trial logs are in each child run"),
    # Datastore registration
    ("Datastore.register_azure_blob_container", "create_if_not_exists"): (False, "refuse", *_NO_CONTAINER),
    ("Datastore.register_azure_blob_container", "grant_workspace_access"): (
        False, "refuse", "v2 datastores grant nothing: access comes from the credentials or the identity given.",
        "az role assignment create --role 'Storage Blob Data Reader' for the workspace's identity, then register"),
    ("Datastore.register_azure_blob_container", "subscription_id"): (
        None, "refuse", "v2 datastores name the storage account only; its subscription is not part of the datastore.",
        "register with account_name (and credentials); the account may be in any subscription"),
    ("Datastore.register_azure_blob_container", "resource_group"): (
        None, "refuse", "v2 datastores name the storage account only; its resource group is not part of the datastore.",
        "register with account_name (and credentials); the account may be in any resource group"),
    ("Datastore.register_azure_blob_container", "skip_validation"): (
        False, "warn", "v2 never checks the credentials when registering (as skip_validation=True did).",
        "nothing: the first read or upload reports bad credentials"),
    ("Datastore.register_azure_blob_container", "blob_cache_timeout"): (
        None, "warn", "v2 blob datastores have no cache timeout; mounts use the job's data settings.",
        "DATASET_MOUNT_* environment variables of the job"),
    ("Datastore.register_azure_file_share", "create_if_not_exists"): (
        False, "refuse", "v2 registers a datastore for an existing file share and never creates one.",
        "create it first (az storage share create), then register"),
    ("Datastore.register_azure_file_share", "skip_validation"): (
        False, "warn", "v2 never checks the credentials when registering (as skip_validation=True did).",
        "nothing: the first read or upload reports bad credentials"),
    # Model.list
    ("Model.list", "dataset_id"): (
        None, "refuse", "v2 model assets keep no link to the datasets they were trained on, so none can be matched.",
        "tag the models with the dataset (Model.register(..., tags={'dataset': id})) and filter with tags="),
    ("Model.list", "expand"): (True, "warn", "v2 always returns whole model assets.", "nothing to change"),
    ("Model.list", "page_count"): (255, "warn", "azure-ai-ml pages through every model itself.", "nothing to change"),
    # the pre-2019 Dataset.from_* readers: a dropped reading option reads other rows than v1 did
    ("Dataset.from_delimited_files", "quoting"): (False, "refuse", *_READ, "pandas.read_csv(..., quoting=...) on "
                                                  "FileDataset.download()ed files, or mltable.from_delimited_files"),
    ("Dataset.from_delimited_files", "skip_rows"): (0, "refuse", *_READ, "pandas.read_csv(..., skiprows=...) on "
                                                    "downloaded files, or TabularDataset.skip(count) after reading"),
    ("Dataset.from_delimited_files", "skip_mode"): (None, "refuse", *_READ, "pandas.read_csv(..., skiprows=...)"),
    ("Dataset.from_delimited_files", "comment"): (None, "refuse", *_READ, "pandas.read_csv(..., comment=...)"),
    ("Dataset.from_delimited_files", "archive_options"): (
        None, "refuse", "archives are not opened when read.", "extract the archive, then Dataset.Tabular.from_*"),
    ("Dataset.from_json_files", "flatten_nested_arrays"): (
        False, "refuse", "JSON lines are read as they are; nested arrays stay nested.",
        "pandas.json_normalize on to_pandas_dataframe()"),
    # Model.register / Model.update: deployment metadata v2 keeps elsewhere
    ("Model.register", "child_paths"): (
        None, "refuse", "v2 registers the whole file or folder; a subset of a folder cannot be picked.",
        "copy the wanted files into a folder and register that folder"),
    ("Model.register", "sample_input_dataset"): (None, "refuse", _DEPLOY, _SCHEMA),
    ("Model.register", "sample_output_dataset"): (None, "refuse", _DEPLOY, _SCHEMA),
    ("Model.register", "resource_configuration"): (None, "refuse", _DEPLOY, _RESOURCES),
    ("Model.update", "sample_input_dataset"): (None, "refuse", _DEPLOY, _SCHEMA),
    ("Model.update", "sample_output_dataset"): (None, "refuse", _DEPLOY, _SCHEMA),
    ("Model.update", "resource_configuration"): (None, "refuse", _DEPLOY, _RESOURCES),
    # the deprecated Dataset class (v1's pre-2019 API)
    ("Dataset.register (deprecated)", "visible"): (
        True, "refuse", "v2 data assets have no hidden state at registration.",
        "register, then ml_client.data.archive(name) to hide it"),
    ("Dataset.register (deprecated)", "exist_ok"): (
        False, "refuse", "registering an existing name refuses or adds a version (update_if_exist), never returns "
        "the existing one silently.", "Dataset.get_by_name(ws, name) when it may exist"),
    ("Dataset.update (deprecated)", "visible"): (
        None, "refuse", "v2 hides a data asset by archiving it.", "ml_client.data.archive(name) / restore(name)"),
    # runs
    ("Run.child_run", "outputs"): (
        None, "warn", "a child run has no outputs folder of its own here; nothing is read from the folder named.",
        "child.upload_folder(name, path) (v2: files under ./outputs of the job are kept)"),
    ("Run.get_context", "used_for_context_manager"): (
        False, "warn", "`with run:` behaves the same whatever the value (v2 jobs end when their script ends).",
        "nothing to change"),
    ("Run.get_metrics", "populate"): (
        False, "warn", "metric values are always returned whole (v2/MLflow keeps no external metric blobs).",
        "nothing to change"),
    ("Run.upload_files", "return_artifacts"): (
        False, "warn", "v2 uploads return no artifact objects; upload_files returns None.",
        "run.get_file_names() after the upload"),
    ("Run.upload_files", "timeout_seconds"): (
        None, "warn", "uploads here are not time-limited (v2 uploads retry until done or failed).",
        "nothing to change"),
    ("get_run", "rehydrate"): (True, "warn", "runs are always reopened whole (v2 jobs have no partial form).",
                               "nothing to change"),
    ("get_run", "clean_up"): (True, "warn", "reopening a run leaves nothing to clean up here.", "nothing to change"),
    # datasets: v1 validated lazily-defined steps against the data; here every step is checked when read
    **{(f"TabularDataset.{m}", "validate"): (
        d, "warn", "columns and timestamps are checked when the dataset is read, not when the step is added.",
        "call to_pandas_dataframe() (or take(1).to_pandas_dataframe()) to check early")
       for m, d in (("keep_columns", False), ("with_timestamp_columns", False), ("time_after", True),
                    ("time_before", True), ("time_between", True), ("time_recent", True))},
    ("TabularDataset.to_pandas_dataframe", "on_error"): (
        "null", "refuse", "the reader has no per-value error mode: values that do not parse are read as pandas "
        "reads them.", "read with the default, then check the column (df[col].isna()) and raise yourself"),
    ("TabularDataset.to_pandas_dataframe", "out_of_range_datetime"): (
        "null", "refuse", "out-of-range datetimes are not handled apart from other values.",
        "read with the default, then pandas.to_datetime(df[col], errors='raise')"),
    # telemetry: acpt-estimator sends none, so these settings have nothing to act on
    **{(f, p): (d, "warn", "acpt-estimator sends no telemetry (v2's azure-ai-ml has its own opt-out).",
                "azure.ai.ml.MLClient(..., enable_telemetry=False) to stop v2's")
       for f, p, d in (("set_diagnostics_collection", "verbosity", 20), ("set_diagnostics_collection", "reason", ""),
                       ("set_diagnostics_collection", "path", None),
                       ("get_diagnostics_collection_info", "component_name", None),
                       ("get_diagnostics_collection_info", "path", None),
                       ("get_diagnostics_collection_info", "proceed_in_hbi_mode", False),
                       ("get_telemetry_log_handler", "instrumentation_key", None),
                       ("get_telemetry_log_handler", "component_name", None),
                       ("get_telemetry_log_handler", "path", None),
                       ("get_telemetry_log_handler", "proceed_in_hbi_mode", False))},
    # environments and models
    ("CondaDependencies.create", "pin_sdk_version"): (
        True, "warn", "no azureml SDK package is added to v2 environments, so there is nothing to pin.",
        "list the packages you need (with versions) in pip_packages"),
    ("Model.__init__", "expand"): (True, "warn", "v2 always returns whole model assets.", "nothing to change"),
    # pipelines
    **{(m, "parent_run_id"): (None, "refuse", "v2 pipeline jobs cannot be made children of another run.",
                              "tag the pipeline run with the other run's id (tags={'parent': id})")
       for m in ("PipelineEndpoint.submit", "PublishedPipeline.submit")},
    **{(m, p): (d, "refuse", "they only apply to a datastore-triggered schedule, which v2 does not have.",
                "a v2 JobSchedule with a RecurrenceTrigger or CronTrigger, or an Event Grid subscription on the "
                "container that submits the job")
       for m, poll in (("Schedule.create", 5), ("Schedule.create_for_pipeline_endpoint", 5), ("Schedule.update", None))
       for p, d in (("polling_interval", poll), ("path_on_datastore", None), ("data_path_parameter_name", None))},
}
_warned: set = set()


def check(member: str, **given) -> None:
    """Refuse or warn for each of ``member``'s table parameters given a value other than v1's default."""
    for name, value in given.items():
        default, action, why, instead = PARAMS[(member, name)]
        if value is None or value == default:
            continue
        if action == "refuse":
            refuse(f"{member}({name}={value!r})", why, instead)
        if (member, name) not in _warned:
            _warned.add((member, name))
            warnings.warn(f"{member}({name}={value!r}) has no effect: {why} Instead: {instead}.", stacklevel=3)
