"""Workspace.from_config, compute targets and datastores over the real MLClient and the fake."""

from __future__ import annotations

import json

import pytest

from acpt_estimator import PyTorch
from acpt_estimator.v1.core.compute import AmlCompute, ComputeTarget
from acpt_estimator.v1.core.datastore import Datastore
from acpt_estimator.exceptions import ComputeTargetException, UserErrorException, WorkspaceException
from acpt_estimator.v1.core.experiment import Experiment
from acpt_estimator.v1.core.workspace import Workspace
from tests.fake_aml import FakeCredential
from tests.fake_aml.fixtures import *  # noqa: F401,F403

pytestmark = pytest.mark.integration


def test_the_v1_sample_compute_pattern(fake_aml, cloud_workspace, capsys):
    # The try/except/create block of nearly every v1 notebook.
    with pytest.raises(ComputeTargetException) as info:
        ComputeTarget(workspace=cloud_workspace, name="gpu-cluster")
    assert info.value.message.startswith(
        "ComputeTargetNotFound: Compute Target with name gpu-cluster not found in provided workspace")
    config = AmlCompute.provisioning_configuration(vm_size="STANDARD_NC6s_v3", max_nodes=4,
                                                   vm_priority="lowpriority")
    target = ComputeTarget.create(cloud_workspace, "gpu-cluster", config)
    target.wait_for_completion(show_output=True, min_node_count=None, timeout_in_minutes=20)
    assert "Succeeded" in capsys.readouterr().out

    put = fake_aml.calls("PUT", r"/computes/gpu-cluster$")
    assert len(put) == 1
    props = put[0].json()["properties"]
    assert props["computeType"] == "AmlCompute"
    scale = props["properties"]["scaleSettings"]
    assert (scale["maxNodeCount"], scale["minNodeCount"]) == (4, 0)
    assert props["properties"]["vmSize"] == "STANDARD_NC6s_v3"
    assert props["properties"]["vmPriority"] == "LowPriority"

    found = ComputeTarget(workspace=cloud_workspace, name="gpu-cluster")
    assert isinstance(found, AmlCompute) and found.provisioning_state == "Succeeded"
    assert list(cloud_workspace.compute_targets) == ["gpu-cluster"]
    # The target object is accepted wherever v1 took one.
    run = Experiment(cloud_workspace, "on-target").submit(
        PyTorch(_project(fake_aml), entry_script="train.py", compute_target=found, use_gpu=True))
    assert fake_aml.state.jobs[run.id].body["properties"]["computeId"].endswith("/computes/gpu-cluster")


def _project(fake_aml) -> str:
    import os
    import tempfile

    folder = tempfile.mkdtemp(dir=os.getcwd())
    with open(os.path.join(folder, "train.py"), "w") as handle:
        handle.write("print(1)\n")
    return folder


@pytest.mark.parametrize("resource_group, workspace_name", [("rg-fake", "typo-ws"), ("typo-rg", "ws-fake")])
def test_a_missing_workspace_is_told_apart_from_a_missing_compute_by_the_error_code(
        fake_aml, resource_group, workspace_name):
    # The fake's compute 404 mentions "workspace" like the service's; only ARM's codes say the workspace is gone.
    ws = Workspace(fake_aml.state.subscription_id, resource_group, workspace_name, auth=FakeCredential())
    with pytest.raises(WorkspaceException) as info:
        ComputeTarget(workspace=ws, name="gpu-cluster")
    assert f"Workspace {workspace_name!r} was not found in resource group {resource_group!r}" in info.value.message
    assert fake_aml.calls("GET", r"/computes/gpu-cluster$")[0].status == 404
    with pytest.raises(WorkspaceException, match=f"Workspace {workspace_name!r} was not found"):
        ws.get_details()  # the 404 of the workspace's own URL


def test_datastores_are_checked_against_the_workspace(fake_aml, cloud_workspace):
    assert cloud_workspace.get_default_datastore().name == "workspaceblobstore"
    assert Datastore.get(cloud_workspace, "workspacefilestore").name == "workspacefilestore"
    assert sorted(cloud_workspace.datastores) == ["workspaceblobstore", "workspacefilestore"]
    with pytest.raises(UserErrorException, match="no datastore named 'nope'"):
        Datastore.get(cloud_workspace, "nope")


def test_from_config_finds_the_workspace_and_submits(fake_aml, tmp_path, monkeypatch):
    state = fake_aml.state
    project = tmp_path / "repo" / "src" / "deep"
    project.mkdir(parents=True)
    (tmp_path / "repo" / ".azureml").mkdir()
    (tmp_path / "repo" / ".azureml" / "config.json").write_text(json.dumps({
        "subscription_id": state.subscription_id, "resource_group": state.resource_group,
        "workspace_name": state.workspace_name}))
    (project / "train.py").write_text("print(1)\n")
    monkeypatch.chdir(project)
    ws = Workspace.from_config(auth=FakeCredential())
    assert (ws.name, ws.resource_group) == (state.workspace_name, state.resource_group)
    assert fake_aml.requests == []  # nothing is sent until the workspace is used
    run = Experiment(ws, "from-config").submit(PyTorch(".", entry_script="train.py", compute_target="cpu",
                                                       use_gpu=True))
    assert run.id in state.jobs
    assert ws._client is not None and ws._client is Experiment(ws, "again").workspace._client


def test_forced_local_runs_make_compute_calls_no_ops(fake_aml, cloud_workspace, monkeypatch):
    monkeypatch.setenv("ACPT_ESTIMATOR_TARGET", "local")
    target = ComputeTarget(workspace=cloud_workspace, name="gpu-cluster")
    assert isinstance(target, AmlCompute)
    created = ComputeTarget.create(cloud_workspace, "gpu-cluster",
                                   AmlCompute.provisioning_configuration(max_nodes=2))
    created.wait_for_completion(show_output=False)
    assert cloud_workspace.get_default_datastore().name == "workspaceblobstore"
    assert fake_aml.requests == [] and cloud_workspace._client is None
