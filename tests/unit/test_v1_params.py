"""No v1 parameter accepted and ignored (issue 21 item 6): each table entry of v1._params refuses (before anything
is created, naming the v2 replacement) or warns; the honoured ones do what v1 did; and the AST scan finds no
unread v1 parameter in the functions brought under the rule so far."""

from __future__ import annotations

import os
import warnings

import pytest

from acpt_estimator.exceptions import UserErrorException, V1NotSupportedException
from acpt_estimator.v1 import _params
from tests.unit.golden_cases import SRC
from tests.unit.test_safety_store import ws  # noqa: F401 - the local store fixture
from tests.v1_params import scan

@pytest.fixture(autouse=True)
def _data(ws, tmp_path):  # noqa: F811
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "a.csv").write_text("x,y\n1,2\n")
    (tmp_path / "d" / "a.json").write_text('{"x": 1}\n')
    ws.get_default_datastore().upload(src_dir=str(tmp_path / "d"), target_path="d", show_progress=False)


# A value other than v1's default, per default (False and 0 are one key: 3 stands for both).
_SET = {None: "given", True: False, False: True, "basic": "enterprise", 0: 3, 255: 10, "null": "fail", 20: 10,
        "": "why", 5: 60}
# Members whose call with v1's default needs a published pipeline: the default is run by
# tests/integration/test_pipelines_publish.py; here the refusal comes first, on a bare object.
_PUBLISHED = ("PipelineEndpoint.submit", "PublishedPipeline.submit", "Schedule.create",
              "Schedule.create_for_pipeline_endpoint", "Schedule.update")


def _call(member: str, ws, **kw):  # noqa: F811
    from acpt_estimator import ScriptRunConfig
    from acpt_estimator.v1.core.dataset import Dataset
    from acpt_estimator.v1.core.datastore import Datastore
    from acpt_estimator.v1.core.model import Model
    from acpt_estimator.v1.core.workspace import Workspace
    from acpt_estimator.v1.train.hyperdrive.parameter_expressions import choice
    from acpt_estimator.v1.train.hyperdrive.policy import PrimaryMetricGoal
    from acpt_estimator.v1.train.hyperdrive.runconfig import HyperDriveConfig
    from acpt_estimator.v1.train.hyperdrive.sampling import RandomParameterSampling

    calls = {
        "Workspace.create": lambda: Workspace.create("w", subscription_id="s", resource_group="rg", **kw),
        "Workspace.update": lambda: ws.update(**kw),
        "HyperDriveConfig": lambda: HyperDriveConfig(
            RandomParameterSampling({"--lr": choice(1, 2)}), "acc", PrimaryMetricGoal.MAXIMIZE, 2,
            run_config=ScriptRunConfig(SRC, script="train.py", compute_target="local"), **kw),
        "Datastore.register_azure_blob_container": lambda: Datastore.register_azure_blob_container(
            ws, "blobs", "container", "account", account_key="a2V5", **kw),
        "Datastore.register_azure_file_share": lambda: Datastore.register_azure_file_share(
            ws, "files", "share", "account", account_key="a2V5", **kw),
        "Model.list": lambda: Model.list(ws, **kw),
        "Dataset.from_delimited_files": lambda: Dataset.from_delimited_files((ws.get_default_datastore(), "d/a.csv"),
                                                                           **kw),
        "Dataset.from_json_files": lambda: Dataset.from_json_files((ws.get_default_datastore(), "d/a.json"), **kw),
        "Model.register": lambda: Model.register(ws, "d/a.csv", "m", **kw),
        "Model.update": lambda: Model(ws, "m").update(**kw),
        "Dataset.register (deprecated)": lambda: _legacy(ws).register(ws, "legacy", **kw),
        "Dataset.update (deprecated)": lambda: Dataset(Dataset.get_by_name(ws, "legacy")).update(**kw),
    }
    calls.update(_calls_added_later(ws, kw))
    return calls[member]()


def _tabular(ws):  # noqa: F811
    from acpt_estimator.v1.core.dataset import Dataset

    return Dataset.Tabular.from_delimited_files((ws.get_default_datastore(), "d/a.csv"))


def _calls_added_later(ws, kw):  # noqa: F811 - runs, tabular steps, telemetry, environments, pipelines
    import datetime

    from acpt_estimator.v1 import telemetry
    from acpt_estimator.v1.core.conda_dependencies import CondaDependencies
    from acpt_estimator.v1.core.experiment import Experiment
    from acpt_estimator.v1.core.model import Model
    from acpt_estimator.v1.core.run import Run, get_run
    from acpt_estimator.v1.pipeline.core.pipeline_endpoint import PipelineEndpoint
    from acpt_estimator.v1.pipeline.core.published_pipeline import PublishedPipeline
    from acpt_estimator.v1.pipeline.core.schedule import Schedule

    def run():
        return Experiment(ws, "params").start_logging()

    timed = lambda: _tabular(ws).with_timestamp_columns(timestamp="x")  # noqa: E731
    since = datetime.datetime(2020, 1, 1)
    return {
        "Run.child_run": lambda: run().child_run(name="c", **kw),
        "Run.get_context": lambda: Run.get_context(**kw),
        "Run.get_metrics": lambda: run().get_metrics(**kw),
        "Run.upload_files": lambda: run().upload_files([], [], **kw),
        "get_run": lambda: get_run(Experiment(ws, "params"), run().id, **kw),
        "TabularDataset.keep_columns": lambda: _tabular(ws).keep_columns(["x"], **kw),
        "TabularDataset.with_timestamp_columns": lambda: _tabular(ws).with_timestamp_columns(timestamp="x", **kw),
        "TabularDataset.time_after": lambda: timed().time_after(since, **kw),
        "TabularDataset.time_before": lambda: timed().time_before(since, **kw),
        "TabularDataset.time_between": lambda: timed().time_between(since, since, **kw),
        "TabularDataset.time_recent": lambda: timed().time_recent(datetime.timedelta(days=1), **kw),
        "TabularDataset.to_pandas_dataframe": lambda: _tabular(ws).to_pandas_dataframe(**kw),
        "set_diagnostics_collection": lambda: telemetry.set_diagnostics_collection(**kw),
        "get_diagnostics_collection_info": lambda: telemetry.get_diagnostics_collection_info(**kw),
        "get_telemetry_log_handler": lambda: telemetry.get_telemetry_log_handler(**kw),
        "CondaDependencies.create": lambda: CondaDependencies.create(**kw),
        "Model.__init__": lambda: Model(ws, "m", **kw),
        "PipelineEndpoint.submit": lambda: PipelineEndpoint.__new__(PipelineEndpoint).submit("e", **kw),
        "PublishedPipeline.submit": lambda: PublishedPipeline.__new__(PublishedPipeline).submit(ws, "e", **kw),
        "Schedule.create": lambda: Schedule.create(ws, "s", "no-pipeline", "e", **kw),
        "Schedule.create_for_pipeline_endpoint": lambda: Schedule.create_for_pipeline_endpoint(
            ws, "s", "no-endpoint", "e", **kw),
        "Schedule.update": lambda: Schedule.__new__(Schedule).update(**kw),
    }


def _legacy(ws):  # noqa: F811 - v1's pre-2019 Dataset class
    from acpt_estimator.v1.core.dataset import Dataset

    return Dataset.from_delimited_files((ws.get_default_datastore(), "d/a.csv"))


def _store_listing():
    home = os.environ["ACPT_ESTIMATOR_HOME"]
    return sorted(os.path.relpath(os.path.join(d, n), home) for d, _, ns in os.walk(home) for n in ns)


@pytest.mark.parametrize("member,param", sorted(_params.PARAMS), ids=lambda v: str(v))
def test_each_table_entry_refuses_or_warns(ws, monkeypatch, member, param):  # noqa: F811
    monkeypatch.setattr(_params, "_warned", set())
    default, action, why, instead = _params.PARAMS[(member, param)]
    value = _SET[default]
    if member in ("Model.update", "Model.__init__"):  # what is updated or reopened exists first
        _call("Model.register", ws)
    if member == "Dataset.update (deprecated)":
        _call("Dataset.register (deprecated)", ws)
    before = _store_listing()
    if action == "refuse":
        with pytest.raises(V1NotSupportedException) as caught:
            _call(member, ws, **{param: value})
        assert f"{member}({param}={value!r})" in caught.value.message and instead in caught.value.message
        assert _store_listing() == before  # refused before anything was created
    else:
        with pytest.warns(UserWarning, match=rf"{member}\({param}=.*has no effect"):
            _call(member, ws, **{param: value})
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # v1's default: accepted silently
        if member in _PUBLISHED:
            _params.check(member, **{param: default})
        else:
            _call(member, ws, **{param: default})


def test_a_customer_managed_key_and_identity_are_sent_to_v2():
    from acpt_estimator.backends.azureml.workspaces import v2_workspace

    vault = "/subscriptions/s/resourceGroups/r/providers/Microsoft.KeyVault/vaults/kv"
    identity = "/subscriptions/s/resourceGroups/r/providers/Microsoft.ManagedIdentity/userAssignedIdentities/i"
    entity = v2_workspace("w", "eastus", "rg", {"cmk_keyvault": vault, "resource_cmk_uri": "https://kv/keys/k/1",
                                                "primary_user_assigned_identity": identity, "hbi_workspace": True})
    assert (entity.customer_managed_key.key_vault, entity.customer_managed_key.key_uri) == (vault, "https://kv/keys/k/1")
    assert entity.primary_user_assigned_identity == identity and entity.hbi_workspace
    assert [i.resource_id for i in entity.identity.user_assigned_identities] == [identity]


def test_a_vnet_in_another_resource_group_names_the_subnet_by_its_arm_id():
    from acpt_estimator.exceptions import ComputeTargetException
    from acpt_estimator.v1.core.compute import AmlCompute, ComputeInstance

    config = AmlCompute.provisioning_configuration(vm_size="STANDARD_D2_V2", max_nodes=2, vnet_name="net",
                                                   subnet_name="default", vnet_resourcegroup_name="network-rg")
    subnet = ("/subscriptions/sub/resourceGroups/network-rg/providers/Microsoft.Network/virtualNetworks/net/"
              "subnets/default")
    assert config._to_v2("cpu", "sub").network_settings.subnet == subnet
    same_group = AmlCompute.provisioning_configuration(vm_size="STANDARD_D2_V2", max_nodes=2, vnet_name="net",
                                                       subnet_name="default")
    assert same_group._to_v2("cpu", "sub").network_settings.subnet == "default"
    instance = ComputeInstance.provisioning_configuration(vm_size="STANDARD_DS3_V2", vnet_name="net",
                                                         subnet_name="default", vnet_resourcegroup_name="network-rg")
    assert instance._to_v2("ci", "sub").network_settings.subnet == subnet
    with pytest.raises(ComputeTargetException, match="vnet_resourcegroup_name='network-rg' without vnet_name"):
        AmlCompute.provisioning_configuration(vm_size="STANDARD_D2_V2", max_nodes=2,
                                              vnet_resourcegroup_name="network-rg")._to_v2("cpu", "sub")


def test_workspace_get_reads_an_arm_id(monkeypatch):
    from acpt_estimator.v1.core.workspace import Workspace

    monkeypatch.setenv("ACPT_ESTIMATOR_TARGET", "cloud")
    ws = Workspace.get(None, id="/subscriptions/sub-1/resourceGroups/rg-1/providers/"
                                "Microsoft.MachineLearningServices/workspaces/ws-1")
    assert (ws.subscription_id, ws.resource_group, ws.name) == ("sub-1", "rg-1", "ws-1")
    with pytest.raises(UserErrorException, match="pass the workspace's ARM id"):
        Workspace.get(None, id="ws-1")


def test_half_a_customer_managed_key_is_refused():
    from acpt_estimator.v1.core.workspace import Workspace

    with pytest.raises(UserErrorException, match="needs both"):
        Workspace.create("w", subscription_id="s", resource_group="rg", cmk_keyvault="/subscriptions/s/vault")


def test_experiment_list_filters_on_tags(ws):  # noqa: F811
    from acpt_estimator.v1.core.experiment import Experiment

    for name, team in (("a", "vision"), ("b", "nlp")):
        experiment = Experiment(ws, name)
        experiment.start_logging().complete()
        experiment.set_tags({"team": team})
    assert [e.name for e in Experiment.list(ws, tags={"team": "nlp"})] == ["b"]
    assert sorted(e.name for e in Experiment.list(ws)) == ["a", "b"]


def test_no_v1_function_swallows_a_v1_parameter():
    """Every public function and class member of the v1 tree (and what the v1 surface's names resolve to, engine
    methods included) reads each v1 parameter it takes, or the table above refuses or warns about it.
    Underscore-prefixed parameters (``_workflow_provider``, ``_telemetry_values``...) are v1 internals, not checked.
    (wait_for_completion(is_delete_operation=True): tests/integration/test_cloud_core.py, against the fake service.)
    """
    from tests.v1_params import scan_tree

    assert scan() == {}
    assert scan_tree() == {}


def test_the_scan_finds_a_swallowed_parameter():
    from acpt_estimator.v1._refusal import refuse
    from tests.v1_params import unread

    def swallowing(workspace, name, tags=None, **kwargs):
        return workspace, name

    def handing_on(workspace, **kwargs):
        return workspace, dict(kwargs)

    def deleting(workspace, wait_timeout=3600, _internal=None):
        del wait_timeout  # handled on purpose: the function's comment says why the value cannot matter
        return workspace

    def refusing(experiment, source_directory):
        refuse("legacy", "why", "instead")

    assert unread(swallowing, ["workspace", "name", "tags", "expand"]) == ["tags", "expand"]
    assert unread(deleting, ["workspace", "wait_timeout", "_internal"]) == []  # _v1 internals are not checked
    assert unread(refusing, ["experiment", "source_directory"]) == []
    assert unread(handing_on, ["workspace", "expand"]) == []


def test_a_blob_datastore_keeps_the_v1_fields_it_is_made_with(ws):  # noqa: F811
    from acpt_estimator.v1.data.azure_storage_datastore import AzureBlobDatastore

    store = AzureBlobDatastore(ws, "blobs", "container", "account", workspace_msi_has_access=True,
                               subscription_id="sub", resource_group="rg", service_data_access_auth_identity="None")
    assert (store.workspace_msi_has_access, store.subscription_id, store.resource_group,
            store.service_data_access_auth_identity) == (True, "sub", "rg", "None")


def test_submit_with_credential_passthrough_sets_the_run_configuration_flag(ws, caplog):  # noqa: F811
    """v1's submit(credential_passthrough=True) is the run configuration's flag, which is then said not carried
    (v2: identity=UserIdentityConfiguration()) like any other unmapped field."""
    import logging

    from acpt_estimator import ScriptRunConfig
    from acpt_estimator.v1.core.script_run_config import submit

    config = ScriptRunConfig(SRC, script="train.py", compute_target="local")
    with caplog.at_level(logging.WARNING):
        run = submit(config, ws, "passthrough", credential_passthrough=True)
    run.wait_for_completion()
    assert config.run_config.credential_passthrough is True
    assert "run_config.credential_passthrough is not carried" in caplog.text
