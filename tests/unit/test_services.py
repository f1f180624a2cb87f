"""The workspace services (``acpt_estimator.services``) are the one place that picks the local store or Azure.

Their two implementations offer the same operations in every area, and the v1 classes in v1/core, v1/data,
v1/pipeline and v1/train ask them instead of reading the workspace's locality themselves.
"""

import ast
import inspect
import os

import pytest

import acpt_estimator
from acpt_estimator import services
from acpt_estimator.backends.azureml.services import CloudServices
from acpt_estimator.backends.azureml.workspaces import CloudWorkspaces
from acpt_estimator.backends.local.services import LocalServices
from acpt_estimator.backends.local.workspaces import LocalWorkspaces

AREAS = ("compute", "datasets", "datastores", "environments", "experiments", "models", "pipeline_endpoints",
         "published_pipelines", "schedules", "secrets", "workspace")
V1 = os.path.join(os.path.dirname(acpt_estimator.__file__), "v1")
# What decides locality; v1 code outside the Workspace's own state must not read or call these.
LOCALITY = {"_offline", "is_local", "local_mode", "offline_mode", "is_local_workspace", "in_cloud"}
# v1/core/workspace.py defines the state the services read: ``_offline`` (local-only, or local runs forced, or
# ``convert`` capturing) and ``is_local``. Defining them is the Workspace's own business, not a backend choice.
OWN_STATE = {("core/workspace.py", "_offline"), ("core/workspace.py", "offline_mode")}


def _operations(obj) -> set:
    return {name for name, _ in inspect.getmembers(type(obj)) if not name.startswith("_")}


class _Workspace:
    """What constructing the services reads of a workspace: nothing is contacted until an operation runs."""

    name, subscription_id, resource_group, _offline = "ws", "sub", "rg", False


@pytest.mark.parametrize("area", AREAS)
def test_local_and_cloud_services_offer_the_same_operations(area):
    local, cloud = getattr(LocalServices(_Workspace()), area), getattr(CloudServices(_Workspace()), area)
    assert _operations(local) == _operations(cloud)
    assert f"  {area}" in services.__doc__  # each area's operations are documented where the choice is made


def test_the_workspace_directories_offer_the_same_operations():
    assert _operations(LocalWorkspaces()) == _operations(CloudWorkspaces())


def test_the_choice_follows_the_workspace(monkeypatch):
    monkeypatch.delenv("ACPT_ESTIMATOR_TARGET", raising=False)
    assert isinstance(services.services_for(None), LocalServices)
    assert isinstance(services.services_for(_Workspace()), CloudServices)
    monkeypatch.setenv("ACPT_ESTIMATOR_TARGET", "local")  # forced local runs: nothing may reach Azure
    assert isinstance(services.workspaces(), LocalWorkspaces)


def _locality_reads(path: str) -> list:
    with open(path, encoding="utf-8") as handle:
        tree = ast.parse(handle.read())
    found = []
    for node in ast.walk(tree):
        name = None
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
            name = node.attr
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            name = node.id
        elif isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("getattr", "hasattr") and \
                len(node.args) > 1 and isinstance(node.args[1], ast.Constant):
            name = node.args[1].value  # getattr(workspace, "_offline", True)
        if name in LOCALITY:
            found.append((name, node.lineno))
    return found


def test_v1_classes_do_not_choose_a_backend():
    reads = []
    for folder in ("core", "data", "pipeline", "train"):
        for root, _, files in os.walk(os.path.join(V1, folder)):
            for file in sorted(f for f in files if f.endswith(".py")):
                path = os.path.join(root, file)
                shown = os.path.relpath(path, V1).replace(os.sep, "/")
                reads += [f"{shown}:{line} reads {name}" for name, line in _locality_reads(path)
                          if (shown, name) not in OWN_STATE]
    assert reads == [], "ask acpt_estimator.services instead:\n" + "\n".join(reads)


@pytest.mark.parametrize("area", AREAS)
def test_local_and_cloud_operations_take_the_same_parameters(area):
    local, cloud = type(getattr(LocalServices(_Workspace()), area)), type(getattr(CloudServices(_Workspace()), area))
    methods = [n for n, _ in inspect.getmembers(local, inspect.isfunction) if not n.startswith("_")]
    assert methods
    for name in methods:
        assert list(inspect.signature(getattr(local, name)).parameters) == \
            list(inspect.signature(getattr(cloud, name)).parameters), f"{area}.{name}"
