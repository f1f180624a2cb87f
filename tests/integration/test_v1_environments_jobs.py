"""Environment recipes end to end: registered and submitted through the real MLClient (loopback fake), run
locally through real processes, and the job runtime's tracking check as the job's first process."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from acpt_estimator.backends.azureml.translate import environment_for
from acpt_estimator.exceptions import UserErrorException
from acpt_estimator.job_runtime import RUNTIME_DIR
from acpt_estimator.v1.core.conda_dependencies import CondaDependencies
from acpt_estimator.v1.core.environment import Environment
from acpt_estimator.v1.core.experiment import Experiment
from acpt_estimator.v1.core.script_run_config import ScriptRunConfig, get_run_config_from_script_run, submit
from acpt_estimator.v1.core.workspace import Workspace
from tests.fake_aml.fixtures import *  # noqa: F401,F403

pytestmark = pytest.mark.integration
ENV_PUT = r"/environments/[^/]+/versions/[^/]+$"


def test_register_names_the_asset_and_jobs_use_an_anonymous_content_addressed_one(fake_aml, cloud_workspace,
                                                                                   make_project):
    env = Environment("sklearn-env")
    env.python.conda_dependencies = CondaDependencies.create(pip_packages=["scikit-learn==1.5.0"])
    env.version = "1"
    registered = env.register(workspace=cloud_workspace)
    assert registered.version == "1" and registered.name == "sklearn-env"
    put = [r for r in fake_aml.calls("PUT", ENV_PUT) if r.status in (200, 201)]
    assert put[-1].path.endswith("/environments/sklearn-env/versions/1")
    assert "scikit-learn==1.5.0" in put[-1].json()["properties"]["condaFile"]

    run = Experiment(cloud_workspace, "env-exp").submit(
        ScriptRunConfig(make_project(), script="train.py", compute_target="cpu-cluster", environment=env))
    paths = [r.path for r in fake_aml.calls("PUT", ENV_PUT) if r.status in (200, 201)]
    assert "/environments/CliV2AnonymousEnvironment/versions/" in paths[-1]
    assert not any("acpt-pytorch-2.8" in p for p in paths)
    body = [r for r in fake_aml.calls("PUT", r"/jobs/[^/]+$") if r.status in (200, 201)][-1].json()["properties"]
    assert body["environmentId"].endswith(paths[-1].split("/workspaces/ws-fake")[-1])
    assert get_run_config_from_script_run(run).target == "cpu-cluster"

    with pytest.warns(UserWarning, match="built no image: its status is 'Registered', not v1's 'Succeeded'"):
        details = Environment.from_docker_image("built-env", "me/img:2").build(cloud_workspace)
    assert details.status == "Registered" and "when the first job uses it" in details.get_log()
    assert fake_aml.calls("PUT", r"/environments/built-env/versions/1$")


def test_register_versions_list_and_image_details_in_the_workspace(fake_aml, cloud_workspace):
    assert Environment.from_docker_image("team-env", "myacr.azurecr.io/train:1").register(cloud_workspace).version == "1"
    assert Environment.from_docker_image("team-env", "myacr.azurecr.io/train:1").register(cloud_workspace).version == "1"
    assert Environment.from_docker_image("team-env", "myacr.azurecr.io/train:2").register(cloud_workspace).version == "2"
    assert list(Environment.list(workspace=cloud_workspace)) == list(cloud_workspace.environments) == ["team-env"]
    details = Environment.get(cloud_workspace, "team-env", version="1").get_image_details(cloud_workspace)
    assert (details.image, details.registry) == ("myacr.azurecr.io/train:1", {"address": "myacr.azurecr.io"})
    latest = Environment.get(cloud_workspace, "team-env")
    assert (latest.version, latest.docker.base_image) == ("2", "myacr.azurecr.io/train:2")
    assert environment_for(latest._to_spec()) == "azureml:team-env:2"
    with pytest.raises(UserErrorException, match="no environment nope@latest in workspace"):
        Environment.get(cloud_workspace, "nope")


def _check(env, python_args=()):
    full = {"PATH": os.environ.get("PATH", ""), "PYTHONPATH": RUNTIME_DIR, **env}
    return subprocess.run([sys.executable, *python_args, "-m", "acpt_check_tracking"], env=full,
                          capture_output=True, text=True, timeout=60)


def test_tracking_check_fails_a_bare_image_at_start_with_the_fix():
    bare = _check({}, ["-S"])  # -S: no site-packages, like an image with neither azureml-core nor MLflow
    assert bare.returncode == 1
    assert "pip install mlflow-skinny azureml-mlflow" in bare.stderr and "user_managed=False" in bare.stderr
    assert _check({"ACPT_ESTIMATOR_REQUIRE_TRACKING": "0"}, ["-S"]).returncode == 0


def test_tracking_check_passes_where_an_azureml_core_is_installed():
    assert _check({}).returncode == 0  # this environment has an azureml.core (acpt-estimator's shims)


def test_script_run_config_with_an_environment_runs_locally(tmp_path, monkeypatch):
    monkeypatch.setenv("ACPT_ESTIMATOR_HOME", str(tmp_path / "store"))
    monkeypatch.setenv("ACPT_ESTIMATOR_TARGET", "local")
    source = tmp_path / "src"
    source.mkdir()
    (source / "train.py").write_text(textwrap.dedent("""
        import os
        from azureml.core.run import Run
        run = Run.get_context()
        run.log("flag", float(os.environ["FROM_ENV"]))
        print("env var", os.environ["FROM_ENV"], flush=True)
    """))
    env = Environment.from_pip_requirements("local-env", str(_requirements(tmp_path)))
    env.environment_variables = {"FROM_ENV": "7"}
    ws = Workspace._local()
    registered = env.register(ws)
    src = ScriptRunConfig(str(source), script="train.py", environment=Environment.get(ws, "local-env"))
    run = submit(src, ws, "local-env-exp")  # azureml.core.script_run_config.submit, as Experiment.submit uses
    run.wait_for_completion()
    assert registered.version == "1" and run.get_status() == "Completed"
    assert get_run_config_from_script_run(run) is src.run_config
    assert run.get_metrics() == {"flag": 7.0}


def _requirements(tmp_path):
    path = tmp_path / "requirements.txt"
    path.write_text("pyyaml\n")
    return path


def test_v1_era_curated_environments_through_every_path_in_the_workspace(fake_aml, cloud_workspace, make_project,
                                                                         caplog):
    from acpt_estimator.environments import default_acpt

    old, ws = "AzureML-PyTorch-1.6-GPU", cloud_workspace
    Environment.from_docker_image("team-env", "myacr.azurecr.io/train:1").register(ws)
    assert old in ws.environments and old in Environment.list(ws) and "nope" not in ws.environments
    paths = {"ws.environments[name]": lambda: ws.environments[old],
             "ws.environments.get": lambda: ws.environments.get(old),
             "Environment.list(ws)[name]": lambda: Environment.list(ws)[old],
             "Environment.get(ws, name)": lambda: Environment.get(ws, old),
             "Environment.get(ws, name, version)": lambda: Environment.get(ws, old, "1")}
    wanted = f"azureml:{default_acpt().workspace_name}@latest"
    for path, reach in paths.items():
        caplog.clear()
        env = reach()
        assert env.name == old and environment_for(env._to_spec()) == wanted, path
        assert f"Curated environment '{old}' no longer exists" in caplog.text, path
    assert list(ws.environments) == ["team-env"]  # the listing is the workspace's; curated ones live in the registry

    Experiment(ws, "curated-exp").submit(ScriptRunConfig(make_project(), script="train.py",
                                                          compute_target="gpu-cluster",
                                                          environment=ws.environments[old]))
    body = [r for r in fake_aml.calls("PUT", r"/jobs/[^/]+$") if r.status in (200, 201)][-1].json()["properties"]
    assert body["environmentId"] == wanted
