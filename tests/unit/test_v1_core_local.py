"""v1 notebook cells for the workspace, compute, datastores, models, secrets and auth, run unchanged with local runs
forced (ACPT_ESTIMATOR_TARGET=local): what they print and return is v1's shape, against the local store."""

from __future__ import annotations

import json
import os
import stat

import pytest

from acpt_estimator import target
from acpt_estimator.exceptions import ComputeTargetException, UserErrorException, V1NotSupportedException
from azureml.core import Datastore, Keyvault, Model, Workspace
from azureml.core.compute import AksCompute, AmlCompute, ComputeInstance, ComputeTarget
from azureml.core.compute_target import LocalTarget, prepare_compute_target
from azureml.data.azure_storage_datastore import AzureBlobDatastore, AzureFileDatastore


@pytest.fixture(autouse=True)
def local_store(monkeypatch, tmp_path):
    monkeypatch.setenv("ACPT_ESTIMATOR_TARGET", "local")
    monkeypatch.setenv("ACPT_ESTIMATOR_HOME", str(tmp_path / "store"))
    monkeypatch.delenv("ACPT_ESTIMATOR_CAPTURE_DIR", raising=False)
    monkeypatch.delenv("AZUREML_MODEL_DIR", raising=False)
    monkeypatch.setattr(target, "_forced", None)
    monkeypatch.chdir(tmp_path)
    return tmp_path / "store"


@pytest.fixture
def ws():
    return Workspace.from_config()


def test_workspace_printouts_and_details(ws, capsys, tmp_path):
    print(ws.name, ws.location, ws.resource_group, sep="\n")
    print("Azure region: " + ws.location)
    assert capsys.readouterr().out == "local\nlocal\nlocal\nAzure region: local\n"
    details = ws.get_details()
    assert details["name"] == "local" and details["location"] == "local" and details["sku"] == "basic"
    assert ws.tags == {} and ws.sku == "basic"
    ws.write_config(path=str(tmp_path / "proj"), file_name="ws.json")
    written = json.loads((tmp_path / "proj" / ".azureml" / "ws.json").read_text())
    assert written == {"subscription_id": "local", "resource_group": "local", "workspace_name": "local"}
    with pytest.raises(UserErrorException, match=r"file_name='\.\./x.json'.*plain file name"):
        ws.write_config(file_name="../x.json")
    assert Workspace.create("mine", subscription_id="s", resource_group="rg", exist_ok=True).name == "mine"
    assert list(Workspace.list("any-subscription")) == ["local"]
    assert ws.get_mlflow_tracking_uri() == "sqlite:///" + os.path.join(os.environ["ACPT_ESTIMATOR_HOME"], "mlflow.db")


def test_the_v1_compute_cell_runs_and_prints_v1_status(ws, capsys):
    cluster_name = "cpucluster"
    try:
        compute_target = ComputeTarget(workspace=ws, name=cluster_name)
        print("Found existing compute target")
    except ComputeTargetException:  # never reached locally: any name stands in
        raise AssertionError("local runs give a stand-in for every compute name")
    compute_config = AmlCompute.provisioning_configuration(vm_size="STANDARD_D2_V2", max_nodes=4)
    created = ComputeTarget.create(ws, "other-cluster", compute_config)
    created.wait_for_completion(show_output=True, min_node_count=None, timeout_in_minutes=20)
    status = created.get_status().serialize()
    assert status["provisioningState"] == "Succeeded" and status["currentNodeCount"] == 0
    assert status["vmSize"] == "STANDARD_D2_V2" and status["scaleSettings"]["maxNodeCount"] == 4
    assert status["nodeStateCounts"]["idleNodeCount"] == 0 and status["allocationState"] == "Steady"
    print(compute_target.status.serialize())
    assert compute_target.status.current_node_count == 0 and compute_target.status.provisioning_state == "Succeeded"
    assert ws.compute_targets[cluster_name].name == cluster_name  # the KeyError of the issue
    assert isinstance(ws.compute_targets.get("gpu"), AmlCompute) and ws.get_default_compute_target("GPU")
    assert compute_target.list_nodes() == [] and list(compute_target.get_active_runs()) == []
    sizes = AmlCompute.supported_vmsizes(ws)
    assert sizes[0]["name"] == "local" and sizes[0]["vCPUs"] == os.cpu_count()
    assert "Found existing compute target" in capsys.readouterr().out


def test_compute_instance_and_refusing_compute_types(ws):
    config = ComputeInstance.provisioning_configuration(vm_size="STANDARD_DS3_V2")
    instance = ComputeTarget.create(ws, "my-ci", config)
    assert isinstance(instance, ComputeInstance)
    instance.stop(wait_for_completion=True)
    instance.start(wait_for_completion=True)
    assert instance.get_status().serialize()["vmSize"] == "STANDARD_DS3_V2"
    with pytest.raises(ComputeTargetException, match="vm_size=''"):
        ComputeInstance.provisioning_configuration()
    with pytest.raises(V1NotSupportedException, match=r"AksCompute\.provisioning_configuration .*online_endpoints"):
        AksCompute.provisioning_configuration(agent_count=3)
    with pytest.raises(V1NotSupportedException, match="AksCompute is not supported"):
        AksCompute(ws, "aks")
    with pytest.raises(V1NotSupportedException, match="prepare_compute_target is not supported"):
        prepare_compute_target(None, ".", None)
    assert (LocalTarget().name, LocalTarget().type) == ("local", "local")


def test_datastores_register_default_download_and_unregister(ws, tmp_path, caplog, monkeypatch):
    blob = Datastore.register_azure_blob_container(ws, datastore_name="training_data", container_name="data",
                                                   account_name="myaccount", account_key="secret-key")
    assert isinstance(blob, AzureBlobDatastore)
    assert (blob.datastore_type, blob.account_name, blob.container_name, blob.protocol, blob.endpoint) == \
        ("AzureBlob", "myaccount", "data", "https", "core.windows.net")
    assert "secret-key" not in (tmp_path / "store" / "datastores.json").read_text()
    share = Datastore.register_azure_file_share(ws, "share_store", file_share_name="share", account_name="acc")
    assert isinstance(Datastore.get(ws, "share_store"), AzureFileDatastore) and share.datastore_type == "AzureFile"
    assert sorted(ws.datastores) == ["share_store", "training_data", "workspaceblobstore", "workspacefilestore"]
    with pytest.raises(UserErrorException, match="already registered with other settings.*overwrite=True"):
        Datastore.register_azure_blob_container(ws, "training_data", "other", "myaccount")
    blob.set_as_default()
    assert ws.get_default_datastore().name == "training_data"
    ws.set_default_datastore("workspaceblobstore")
    assert ws.get_default_datastore().datastore_type == "AzureBlob"

    src = tmp_path / "src"
    (src / "sub").mkdir(parents=True)
    (src / "a.txt").write_text("a")
    (src / "sub" / "b.txt").write_text("b")
    blob.upload(str(src), target_path="mnist", show_progress=False)
    assert blob.download(str(tmp_path / "out"), prefix="mnist", show_progress=False) == 2
    assert (tmp_path / "out" / "mnist" / "sub" / "b.txt").read_text() == "b"
    assert blob.download(str(tmp_path / "out"), prefix="mnist", show_progress=False) == 0  # already there

    blob.unregister()
    assert "training_data" not in ws.datastores
    with caplog.at_level("WARNING"):  # local runs forced: an unknown name is a local folder, said once
        stand_in = Datastore.get(ws, "training_data")
    assert stand_in.datastore_type == "AzureBlob" and "is not registered in the local store" in caplog.text
    monkeypatch.delenv("ACPT_ESTIMATOR_TARGET")
    with pytest.raises(UserErrorException, match="no datastore named 'training_data'.*register_azure_blob"):
        Datastore.get(Workspace._local(), "training_data")  # a local-only workspace without forced local runs
    with pytest.raises(UserErrorException, match="cannot be unregistered"):
        Datastore.get(ws, "workspaceblobstore").unregister()


def test_model_register_lookup_update_and_delete(ws, tmp_path):
    (tmp_path / "model.pt").write_bytes(b"weights")
    model = Model.register(ws, model_path="model.pt", model_name="mnist", tags={"area": "vision"},
                           model_framework=Model.Framework.PYTORCH, model_framework_version="2.8")
    Model.register(ws, model_path="model.pt", model_name="mnist")
    assert (model.version, model.id) == (1, "mnist:1")
    latest = Model(ws, "mnist")
    assert (latest.version, latest.id) == (2, "mnist:2") and Model(ws, id="mnist:1").tags == {"area": "vision"}
    assert Model(ws, name="mnist", tags=["area"]).version == 1
    assert open(Model.get_model_path("mnist"), "rb").read() == b"weights"
    assert Model.get_model_path("mnist", version=1).endswith(os.path.join("mnist", "1", "model.pt"))
    model.add_tags({"stage": "test"})
    model.remove_tags(["area"])
    model.update(description="first")
    model.add_properties({"accuracy": "0.9"})
    with pytest.raises(UserErrorException, match="cannot be changed"):
        model.add_properties({"accuracy": "0.8"})
    again = Model(ws, "mnist", version=1)
    assert (again.tags, again.description, again.properties) == ({"stage": "test"}, "first", {"accuracy": "0.9"})
    assert again.model_framework == "PyTorch" and Model.deserialize(ws, again.serialize()).id == "mnist:1"
    assert [m.id for m in Model.list(ws, name="mnist")] == ["mnist:1", "mnist:2"]
    assert list(ws.models) == ["mnist"] and ws.models["mnist"].version == 2
    assert os.path.isfile(model.download(str(tmp_path / "dl")))
    model.delete()
    assert [m.version for m in Model.list(ws)] == [2]
    with pytest.raises(V1NotSupportedException, match="Model.deploy.*online"):
        Model.deploy(ws, "svc", [latest])


def test_model_path_in_a_deployment_and_v1_cache(monkeypatch, tmp_path):
    (tmp_path / "azureml-models" / "clf" / "3").mkdir(parents=True)
    (tmp_path / "azureml-models" / "clf" / "3" / "clf.pkl").write_bytes(b"x")
    assert Model.get_model_path("clf") == os.path.join("azureml-models", "clf", "3", "clf.pkl")
    monkeypatch.setenv("AZUREML_MODEL_DIR", str(tmp_path / "deployed"))
    assert Model.get_model_path("clf") == str(tmp_path / "deployed")


def test_keyvault_secrets_stay_private(ws, local_store):
    keyvault = ws.get_default_keyvault()
    keyvault.set_secret(name="storage-key", value="s3cr3t")
    keyvault.set_secrets({"a-token": "t0k", "b": "v"})
    assert keyvault.get_secret("storage-key") == "s3cr3t"
    assert keyvault.get_secrets(["a-token", "b"]) == {"a-token": "t0k", "b": "v"}
    assert keyvault.get_secret_content_type("b") == "application/NotProvided"
    assert keyvault.list_secrets() == [{"name": "a-token"}, {"name": "b"}, {"name": "storage-key"}]
    folder = local_store / "secrets"
    assert stat.S_IMODE(os.stat(folder).st_mode) == 0o700
    assert stat.S_IMODE(os.stat(folder / "storage-key").st_mode) == 0o600
    assert "s3cr3t" not in repr(keyvault) and isinstance(Keyvault(ws), Keyvault)
    keyvault.delete_secrets(["a-token", "b"])
    with pytest.raises(UserErrorException, match="'b' is not in the workspace key vault"):
        keyvault.get_secret("b")
    with pytest.raises(UserErrorException, match=r"name='\.\./x' is not valid"):
        keyvault.set_secret("../x", "v")


def test_token_auth_classes_give_bearer_tokens():
    from azureml.core.authentication import (AccessToken, ArmTokenAuthentication, Audience,
                                             AzureMLTokenAuthentication, TokenAuthentication)

    seen = []
    auth = TokenAuthentication(lambda audience: seen.append(audience) or ("tok-" + audience.value, 2_000_000_000))
    assert auth.get_token("https://management.azure.com/.default").token == "tok-arm" and seen == [Audience.ARM]
    assert auth.get_authentication_header() == {"Authorization": "Bearer tok-arm"}
    assert ArmTokenAuthentication("arm-tok").signed_session().headers["Authorization"] == "Bearer arm-tok"
    assert AzureMLTokenAuthentication("aml-tok", run_id="r1").get_token("x").token == "aml-tok"
    assert AccessToken("t", 1).expires_on == 1
    with pytest.raises(UserErrorException, match="arm_access_token must be the access token"):
        ArmTokenAuthentication(None)


def test_telemetry_functions_collect_nothing():
    import logging

    from azureml import telemetry

    telemetry.set_diagnostics_collection(send_diagnostics=True)
    assert telemetry.get_diagnostics_collection_info() == (False, logging.NOTSET)
    assert telemetry.is_diagnostics_collection_info_available() is True
    telemetry.add_diagnostics_properties({"component": "train"})
    assert isinstance(telemetry.get_telemetry_log_handler(), logging.NullHandler)
    telemetry.get_event_logger().log_event({"name": "x"})
    with pytest.raises(UserErrorException, match="must be a dict"):
        telemetry.set_diagnostics_properties(["x"])


def test_workspace_collections_are_name_keyed(ws, tmp_path):
    from azureml.core import Dataset, Environment

    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "x.csv").write_text("a\n1\n")
    Dataset.File.upload_directory(str(tmp_path / "data"), target=(ws.get_default_datastore(), "x"),
                                  show_progress=False).register(ws, "xs")
    assert list(ws.datasets) == ["xs"] and ws.datasets["xs"].name == "xs"
    Environment("my-env").register(ws)
    assert list(ws.environments) == ["my-env"] and isinstance(ws.environments["my-env"], Environment)
    assert ws.experiments == {}  # no local runs yet (tests/integration/test_local_metrics.py covers one)


OLD_CURATED = "AzureML-PyTorch-1.6-GPU"


def curated_paths(ws):
    """Every way v1 code reaches a curated environment, by name (issue 21 item 5)."""
    from azureml.core import Environment

    return {"ws.environments[name]": lambda n: ws.environments[n], "ws.environments.get": ws.environments.get,
            "Environment.list(ws)[name]": lambda n: Environment.list(ws)[n],
            "Environment.get(ws, name)": lambda n: Environment.get(ws, n),
            "Environment.get(ws, name, version)": lambda n: Environment.get(ws, n, "1")}


def test_v1_era_curated_environments_through_every_path_locally(ws, caplog):
    from azureml.core import Environment

    from acpt_estimator.environments import default_acpt

    assert OLD_CURATED in ws.environments and OLD_CURATED in Environment.list(ws)
    assert "nope" not in ws.environments and ws.environments.get("nope") is None
    with pytest.raises(KeyError):
        ws.environments["nope"]
    for path, reach in curated_paths(ws).items():
        caplog.clear()
        env = reach(OLD_CURATED)
        assert isinstance(env, Environment) and env.name == OLD_CURATED, path
        assert env._to_spec().name == default_acpt().workspace_name, path
        assert f"Curated environment '{OLD_CURATED}' no longer exists; using {default_acpt().workspace_name}" \
            in caplog.text, path
    current = ws.environments[default_acpt().workspace_name]
    assert current.docker.base_image == default_acpt().image
    assert list(ws.environments) == []  # listing shows registered environments; curated ones live in the registry
