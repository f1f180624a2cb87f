"""Workspace.from_config like v1 (walk up, .azureml/ then aml_config/ then the folder, config then project),
and what works offline: local-only workspaces and compute calls when local runs are forced."""

from __future__ import annotations

import json

import pytest

from acpt_estimator import target
from acpt_estimator.v1.core.compute import AmlCompute, ComputeTarget
from acpt_estimator.exceptions import ComputeTargetException, UserErrorException
from acpt_estimator.v1.core.workspace import Workspace
from tests.v1_signatures import PATH as SIGNATURES

CONFIG = {"subscription_id": "sub-1", "resource_group": "rg-1", "workspace_name": "ws-1"}


@pytest.fixture(autouse=True)
def _clean(monkeypatch, tmp_path):
    monkeypatch.delenv("ACPT_ESTIMATOR_TARGET", raising=False)
    monkeypatch.delenv("ACPT_ESTIMATOR_CAPTURE_DIR", raising=False)
    monkeypatch.setattr(target, "_forced", None)
    monkeypatch.chdir(tmp_path)


def _write(path, data) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data))


@pytest.mark.parametrize("folder", [".azureml", "aml_config", ""])
def test_from_config_walks_up_through_v1_folders(tmp_path, monkeypatch, folder):
    _write(tmp_path / folder / "config.json", CONFIG)
    deep = tmp_path / "a" / "b" / "c"
    deep.mkdir(parents=True)
    monkeypatch.chdir(deep)
    ws = Workspace.from_config()
    assert (ws.subscription_id, ws.resource_group, ws.name) == ("sub-1", "rg-1", "ws-1")
    assert ws._client is None  # lazily made on first cloud call


def test_from_config_order_and_scope_form(tmp_path):
    _write(tmp_path / ".azureml" / "project.json",
           {"Scope": "/subscriptions/s2/resourceGroups/rg2/providers/Microsoft.MachineLearningServices/workspaces/w2"})
    _write(tmp_path / "aml_config" / "config.json", CONFIG)
    ws = Workspace.from_config(path=str(tmp_path))
    assert ws.name == "w2"  # .azureml/ comes before aml_config/, even with project.json
    _write(tmp_path / ".azureml" / "config.json", {**CONFIG, "workspace_name": "w3"})
    assert Workspace.from_config(path=str(tmp_path)).name == "w3"  # config.json before project.json
    assert Workspace.from_config(path=str(tmp_path), _file_name="project.json").name == "w2"


def test_missing_or_broken_config_says_what_to_do(tmp_path):
    with pytest.raises(UserErrorException) as info:
        Workspace.from_config(path=str(tmp_path))
    assert "could not be found in" in info.value.message and "Download" in info.value.message
    _write(tmp_path / "config.json", {"subscription_id": "s"})
    with pytest.raises(UserErrorException, match="must contain subscription_id, resource_group and workspace_name"):
        Workspace.from_config(path=str(tmp_path))
    with pytest.raises(UserErrorException, match="workspace_name=None is missing"):
        Workspace("s", "rg", None)


def test_forced_local_runs_give_an_offline_workspace_and_compute(monkeypatch, capsys):
    monkeypatch.setenv("ACPT_ESTIMATOR_TARGET", "local")
    ws = Workspace.from_config()
    assert ws.is_local and ws.get_default_datastore().name == "workspaceblobstore"
    assert ws.compute_targets == {}
    compute = ComputeTarget(workspace=ws, name="gpu-cluster")
    assert isinstance(compute, AmlCompute) and compute.name == "gpu-cluster"
    created = ComputeTarget.create(ws, "cpu", AmlCompute.provisioning_configuration(vm_size="STANDARD_D2_V2",
                                                                                  max_nodes=4))
    created.wait_for_completion(show_output=True)
    assert "not provisioned" in capsys.readouterr().out
    assert ws._client is None


def test_provisioning_configuration_needs_max_nodes():
    with pytest.raises(ComputeTargetException) as info:
        AmlCompute.provisioning_configuration(vm_size="STANDARD_NC6")
    assert info.value.message.startswith("Invalid provisioning configuration, max nodes count is mandatory")
    with pytest.raises(ComputeTargetException, match="min_nodes=3 and max_nodes=2"):
        AmlCompute.provisioning_configuration(min_nodes=3, max_nodes=2)
    config = AmlCompute.provisioning_configuration(max_nodes=2, admin_username="u", admin_user_password="pw-123")
    assert "pw-123" not in repr(config)
    with pytest.raises(ComputeTargetException, match="provisioning_configuration"):
        ComputeTarget.create(Workspace("s", "rg", "w"), "x", {"max_nodes": 2})


def test_v1_signatures_are_kept():
    import inspect

    spec = json.load(open(SIGNATURES))
    for key, obj in (("azureml.core:Workspace.from_config", Workspace.from_config),
                     ("azureml.core:Workspace.get", Workspace.get),
                     ("azureml.core.compute:AmlCompute.provisioning_configuration",
                      AmlCompute.provisioning_configuration),
                     ("azureml.core.compute:ComputeTarget.create", ComputeTarget.create)):
        params = [p for p in inspect.signature(obj).parameters.values() if p.name not in ("cls", "self")]
        assert [(p.name, None if p.default is p.empty else repr(p.default)) for p in params] == \
               [(p["name"], p["default"]) for p in spec[key]], key



def test_driver_modules_import_no_cloud_sdk():
    import subprocess
    import sys

    modules = ("v1.core.workspace", "v1.core.experiment", "v1.core.script_run_config", "v1.core.compute",
               "v1.core.authentication", "v1.core.runconfig", "snapshot_guard")
    code = (f"import sys, acpt_estimator; [__import__('acpt_estimator.' + m) for m in {modules!r}]; "
            "print([m for m in ('azure.ai.ml', 'azure.identity', 'azure.core', 'mlflow') if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_workspace_create_arguments_become_a_valid_v2_workspace():
    from acpt_estimator.backends.azureml.workspaces import v2_workspace

    kv = "/subscriptions/s/resourceGroups/rg/providers/Microsoft.KeyVault/vaults/kv1"
    entity = v2_workspace("ws-new", "eastus", "rg", {"friendly_name": "My WS", "tags": {"a": "b"}, "key_vault": kv,
                                                      "hbi_workspace": True,
                                                      "system_datastores_auth_mode": "accessKey"})
    body = entity._to_rest_object().as_dict()  # what begin_create sends, through the SDK's own serializer
    props = body["properties"]
    assert (body["location"], body["tags"], props["friendlyName"], props["keyVault"]) == ("eastus", {"a": "b"},
                                                                                          "My WS", kv)
    assert props["hbiWorkspace"] is True and props["systemDatastoresAuthMode"] == "accessKey"
