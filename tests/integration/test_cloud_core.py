"""v1 workspace, compute, datastore and model cells against a cloud workspace: the real MLClient over HTTPS to the
loopback fake of the Azure ML REST API, with v1's return shapes."""

from __future__ import annotations

import os

import pytest

from acpt_estimator.exceptions import UserErrorException, V1NotSupportedException, WorkspaceException
from azureml.core import Datastore, Model, Workspace
from azureml.core.compute import AmlCompute, ComputeInstance, ComputeTarget
from azureml.data.azure_storage_datastore import AzureBlobDatastore, AzureFileDatastore
from tests.fake_aml import FakeCredential
from tests.fake_aml.fixtures import *  # noqa: F401,F403

pytestmark = pytest.mark.integration


def test_workspace_printouts_details_create_and_list(fake_aml, cloud_workspace, capsys):
    ws = cloud_workspace
    print(ws.name, ws.location, ws.resource_group, sep="\n")
    assert capsys.readouterr().out == f"ws-fake\neastus\n{fake_aml.state.resource_group}\n"  # location: the service
    details = ws.get_details()
    assert (details["sku"], details["workspaceid"], details["provisioningState"]) == ("Basic", "fake-workspace-id",
                                                                                        "Succeeded")
    assert details["keyVault"].endswith("/vaults/fakevault") and details["identityType"] == "SystemAssigned"
    assert ws.tags == {"team": "vision"} and ws.sku == "Basic"
    assert ws.get_mlflow_tracking_uri().startswith("azureml://")
    assert len(fake_aml.calls("GET", r"/workspaces/ws-fake$")) == 1  # read once, then kept

    state = fake_aml.state
    again = Workspace.create(name="ws-fake", auth=FakeCredential(), subscription_id=state.subscription_id,
                             resource_group=state.resource_group, location="eastus", exist_ok=True)
    assert again.name == "ws-fake" and fake_aml.calls("PUT", r"/workspaces/") == []  # got, not created
    with pytest.raises(WorkspaceException, match="already exists.*exist_ok=True"):
        Workspace.create(name="ws-fake", auth=FakeCredential(), subscription_id=state.subscription_id,
                         resource_group=state.resource_group)
    found = Workspace.list(state.subscription_id, auth=FakeCredential(), resource_group=state.resource_group)
    assert list(found) == ["ws-fake"] and found["ws-fake"][0].resource_group == state.resource_group
    with pytest.raises(V1NotSupportedException, match="Workspace.delete.*begin_delete"):
        ws.delete()


def test_the_v1_compute_cell_prints_v1_status(fake_aml, cloud_workspace, capsys):
    ws = cloud_workspace
    config = AmlCompute.provisioning_configuration(vm_size="STANDARD_D2_V2", max_nodes=4)
    target = ComputeTarget.create(ws, "cpu-cluster", config)
    target.wait_for_completion(show_output=True, min_node_count=None, timeout_in_minutes=20)
    status = target.get_status().serialize()
    print(status)
    assert status["provisioningState"] == "Succeeded" and status["allocationState"] == "Steady"
    assert (status["currentNodeCount"], status["nodeStateCounts"]["idleNodeCount"]) == (1, 1)
    assert status["vmSize"] == "STANDARD_D2_V2" and status["scaleSettings"]["maxNodeCount"] == 4
    assert ws.compute_targets["cpu-cluster"].status.current_node_count == 1
    nodes = target.list_nodes()
    assert nodes == [{"nodeId": "tvmps_0", "port": 50000, "publicIpAddress": "20.0.0.4",
                      "privateIpAddress": "10.0.0.4", "nodeState": "idle", "runId": None}]
    sizes = AmlCompute.supported_vmsizes(ws)
    assert {"name": "STANDARD_D2_V2", "vCPUs": 2, "gpus": 0, "memoryGB": 7.0, "maxResourceVolumeMB": 102400} in sizes
    assert list(target.get_active_runs()) == []
    target.update(max_nodes=8)
    assert fake_aml.state.computes["cpu-cluster"]["properties"]["scaleSettings"]["maxNodeCount"] == 8
    target.delete()
    assert "cpu-cluster" not in fake_aml.state.computes


def test_compute_instance_start_stop_restart(fake_aml, cloud_workspace):
    ws = cloud_workspace
    instance = ComputeTarget.create(ws, "my-ci", ComputeInstance.provisioning_configuration(vm_size="STANDARD_DS3_V2"))
    instance.wait_for_completion()
    assert isinstance(ComputeTarget(ws, "my-ci"), ComputeInstance)
    instance.stop(wait_for_completion=True)
    assert instance.get_status().state == "Stopped"
    instance.start(wait_for_completion=True)
    assert instance.get_status().serialize()["state"] == "Running"
    instance.restart(wait_for_completion=True)
    assert [c.path.rsplit("/", 1)[1] for c in fake_aml.calls("POST", r"/computes/my-ci/")] == \
        ["stop", "start", "restart"]


def test_datastores_register_typed_and_unregister(fake_aml, cloud_workspace):
    ws = cloud_workspace
    blob = Datastore.register_azure_blob_container(ws, datastore_name="training_data", container_name="data",
                                                   account_name="myaccount", account_key="secret-key")
    body = fake_aml.calls("PUT", r"/datastores/training_data$")[0].json()["properties"]
    assert (body["datastoreType"], body["accountName"], body["containerName"]) == ("AzureBlob", "myaccount", "data")
    assert body["credentials"] == {"credentialsType": "AccountKey", "secrets": {"secretsType": "AccountKey",
                                                                                 "key": "secret-key"}}
    got = Datastore.get(ws, "training_data")
    assert isinstance(got, AzureBlobDatastore) and isinstance(blob, AzureBlobDatastore)
    assert (got.datastore_type, got.account_name, got.container_name, got.protocol, got.endpoint) == \
        ("AzureBlob", "myaccount", "data", "https", "core.windows.net")
    share = Datastore.register_azure_file_share(ws, "share_store", file_share_name="share", account_name="acc",
                                                sas_token="sv=fake")
    assert isinstance(Datastore.get(ws, "share_store"), AzureFileDatastore) and share.container_name == "share"
    assert set(ws.datastores) == {"workspaceblobstore", "workspacefilestore", "training_data", "share_store"}
    assert ws.get_default_datastore().name == "workspaceblobstore"
    with pytest.raises(V1NotSupportedException, match="set_as_default.*studio"):
        got.set_as_default()
    got.unregister()
    with pytest.raises(UserErrorException, match="no datastore named 'training_data'"):
        Datastore.get(ws, "training_data")


def test_models_have_v1_shapes_and_update(fake_aml, cloud_workspace, submit_for_model):
    ws = cloud_workspace
    run = submit_for_model()
    registered = run.register_model("mnist", model_path="outputs/model.pt", tags={"acc": 0.9})
    run.register_model("mnist", model_path="outputs/model.pt")
    model = Model(ws, "mnist", version=1)
    assert (model.version, model.id, model.tags) == (1, "mnist:1", {"acc": "0.9"}) and registered.id == "mnist:1"
    assert Model(ws, "mnist").id == "mnist:2" and Model(ws, id="mnist:1").version == 1
    assert [m.id for m in Model.list(ws)] == ["mnist:2", "mnist:1"] and ws.models["mnist"].version == 2
    model.add_tags({"stage": "prod"})
    assert fake_aml.state.models[("mnist", "1")]["properties"]["tags"] == {"acc": "0.9", "stage": "prod"}
    model.update(description="best")
    assert Model(ws, "mnist", version=1).description == "best"
    model.delete()
    assert ("mnist", "1") not in fake_aml.state.models and len(fake_aml.calls("DELETE", r"/models/mnist/")) == 1
    assert ws.get_run(run.id).id == run.id and "exp" in ws.experiments
    with open("clf.pkl", "wb") as handle:
        handle.write(b"pickled")
    uploaded = Model.register(ws, model_path="clf.pkl", model_name="clf", model_framework=Model.Framework.SCIKITLEARN)
    assert (uploaded.id, uploaded.model_framework) == ("clf:1", "ScikitLearn")
    assert b"pickled" in fake_aml.state.blobs.blobs.values()  # uploaded to the workspace storage
    downloaded = uploaded.download(target_dir="dl")  # v1's layout: the file itself, in the folder given
    assert downloaded == os.path.join("dl", "clf.pkl") and open(downloaded, "rb").read() == b"pickled"
    with pytest.raises(UserErrorException, match="already exists. Pass exist_ok=True"):
        uploaded.download(target_dir="dl")


def test_active_runs_on_a_cluster(fake_aml, cloud_workspace, make_project):
    from acpt_estimator import PyTorch
    from acpt_estimator.v1.core.experiment import Experiment
    from tests.fake_aml import JobScript

    ws = cloud_workspace
    target = ComputeTarget.create(ws, "gpu-cluster", AmlCompute.provisioning_configuration(max_nodes=2))
    fake_aml.script_next_job(JobScript(states=("Running",)))
    run = Experiment(ws, "busy").submit(PyTorch(make_project(), entry_script="train.py", compute_target=target,
                                                use_gpu=True))
    assert [r.id for r in target.get_active_runs()] == [run.id]
    assert list(target.get_active_runs(status="Completed")) == []


def test_secrets_go_to_the_workspace_key_vault(fake_aml, cloud_workspace, monkeypatch, capsys):
    # azure-keyvault-secrets caches each vault's challenge for the process: forget what earlier tests taught it,
    # so this test sees the challenge round trip whatever ran before it.
    from azure.keyvault.secrets._shared import http_challenge_cache
    http_challenge_cache.clear()
    keyvault = cloud_workspace.get_default_keyvault()
    keyvault.set_secret(name="storage-key", value="s3cr3t")
    keyvault.set_secrets({"api-token": "t0k"})
    assert keyvault.get_secret("storage-key") == "s3cr3t" and keyvault.get_secrets(["api-token"]) == {
        "api-token": "t0k"}
    assert keyvault.list_secrets() == [{"name": "api-token"}, {"name": "storage-key"}]
    assert fake_aml.state.vault.secrets[("fakevault", "storage-key")]["value"] == "s3cr3t"  # the workspace's vault
    # Key Vault's challenge: the first request goes without a token, the retry with one.
    assert [c.status for c in fake_aml.calls("PUT", r"^/keyvault/fakevault/secrets/storage-key$")] == [401, 200]
    keyvault.delete_secret("api-token")
    with pytest.raises(UserErrorException, match="'api-token' is not in the workspace key vault"):
        keyvault.get_secret("api-token")
    assert "s3cr3t" not in capsys.readouterr().out
    monkeypatch.setitem(__import__("sys").modules, "azure.keyvault.secrets", None)  # the client not installed
    with pytest.raises(V1NotSupportedException, match="pip install azure-keyvault-secrets"):
        cloud_workspace.get_default_keyvault().get_secret("storage-key")


@pytest.fixture
def submit_for_model(fake_aml, cloud_workspace, make_project):
    from acpt_estimator import PyTorch
    from acpt_estimator.v1.core.experiment import Experiment

    def submit():
        run = Experiment(cloud_workspace, "exp").submit(
            PyTorch(make_project(), entry_script="train.py", compute_target="cpu", use_gpu=True))
        run.wait_for_completion()
        return run

    return submit


def test_waiting_for_a_delete_reports_it_deleted(fake_aml, cloud_workspace, capsys):
    config = AmlCompute.provisioning_configuration(vm_size="STANDARD_D2_V2", max_nodes=2)
    target = ComputeTarget.create(cloud_workspace, "gone-cluster", config)
    target.wait_for_completion()
    target.delete()
    target.wait_for_completion(show_output=True, is_delete_operation=True)  # v1: no read of the deleted compute
    assert target.provisioning_state == "Deleted" and "delete of 'gone-cluster' finished" in capsys.readouterr().out
    assert fake_aml.calls("DELETE", r"/computes/gone-cluster") and "gone-cluster" not in cloud_workspace.compute_targets
