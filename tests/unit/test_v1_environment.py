"""v1 environment recipes (the v1 docs' "using environments" notebook) through the real v2 translation."""

import logging
import os

import pytest
import yaml

from acpt_estimator import PyTorch
from acpt_estimator.backends.azureml.command_line import render_command
from acpt_estimator.backends.azureml.translate import environment_for, to_command
from acpt_estimator.exceptions import UserErrorException, V1NotSupportedException
from acpt_estimator.v1.core.conda_dependencies import CondaDependencies
from acpt_estimator.v1.core.container_registry import ContainerRegistry
from acpt_estimator.v1.core.environment import (DockerBuildContext, Environment, RSection, SparkSection)
from acpt_estimator.v1.core.script_run_config import ScriptRunConfig
from acpt_estimator.v1.core.workspace import Workspace

from .golden_cases import SRC

ACPT_IMAGE = "mcr.microsoft.com/azureml/curated/acpt-pytorch-2.8-cuda12.6:latest"


@pytest.fixture
def local_ws(tmp_path, monkeypatch):
    monkeypatch.setenv("ACPT_ESTIMATOR_HOME", str(tmp_path / "store"))
    monkeypatch.setenv("ACPT_ESTIMATOR_TARGET", "local")
    return Workspace._local()


def job(env, tmp_path, **kwargs):
    """The validated v2 CommandJob of a ScriptRunConfig using ``env`` (both SDK validations run)."""
    src = ScriptRunConfig(SRC, script="train.py", compute_target="cpu-cluster", environment=env, **kwargs)
    return to_command(src.to_job_spec(experiment_name="e"), context_root=str(tmp_path))._to_job()


def conda_of(v2_job) -> dict:
    return v2_job.environment.conda_file


def pip_of(conda: dict) -> list:
    return next(d for d in conda["dependencies"] if isinstance(d, dict))["pip"]


def test_conda_specification_recipe_registers_and_runs(tmp_path, local_ws):
    spec_file = tmp_path / "env.yml"
    spec_file.write_text("name: x\ndependencies:\n  - python=3.10\n  - pip:\n    - scikit-learn==1.5.0\n")
    env = Environment.from_conda_specification(name="sklearn-env", file_path=str(spec_file))
    registered = env.register(workspace=local_ws)
    assert registered.version == "1" and env.register(local_ws).version == "1"  # same content: same version
    v2 = job(Environment.get(workspace=local_ws, name="sklearn-env"), tmp_path)
    assert v2.environment.name == "CliV2AnonymousEnvironment"  # content-addressed by v2: no dotted asset name
    assert pip_of(conda_of(v2)) == ["scikit-learn==1.5.0", "mlflow-skinny", "azureml-mlflow"]
    assert "python=3.10" in conda_of(v2)["dependencies"]


def test_changes_after_construction_reach_the_job(tmp_path):
    env = Environment("myenv")
    cd = CondaDependencies.create(pip_packages=["pillow==9.2.0"], conda_packages=["scipy"])
    env.python.conda_dependencies = cd
    cd.add_pip_package("tqdm")
    cd.remove_conda_package("scipy")
    env.docker.base_image = "myregistry.azurecr.io/base:1"
    v2 = job(env, tmp_path)
    assert v2.environment.image == "myregistry.azurecr.io/base:1"
    assert pip_of(conda_of(v2)) == ["pillow==9.2.0", "tqdm", "mlflow-skinny", "azureml-mlflow"]
    assert "scipy" not in conda_of(v2)["dependencies"]


def test_docker_image_with_registry_completes_the_name_and_never_sends_the_password(tmp_path, caplog):
    registry = ContainerRegistry()
    registry.address, registry.username, registry.password = "myacr.azurecr.io", "me", "s3cret"
    env = Environment.from_docker_image("img-env", "team/train:2", container_registry=registry)
    with caplog.at_level(logging.WARNING):
        v2 = job(env, tmp_path)
    assert v2.environment.image == "myacr.azurecr.io/team/train:2" and v2.environment.conda_file is None
    assert "AcrPull" in caplog.text and "s3cret" not in caplog.text
    env.save_to_directory(str(tmp_path / "saved"))
    assert "s3cret" not in (tmp_path / "saved" / "azureml_environment.json").read_text()
    assert "s3cret" not in repr(registry)


def test_image_alone_is_user_managed_and_the_job_checks_tracking_first(tmp_path):
    env = Environment.from_docker_image("bare", "me/img:1")
    spec = ScriptRunConfig(SRC, script="train.py", environment=env).to_job_spec()
    assert spec.environment.user_managed
    lines = render_command(spec).splitlines()
    runtime = next(i for i, ln in enumerate(lines) if ln.startswith('export PYTHONPATH="${{inputs.acpt_job_runtime}}'))
    assert lines[runtime + 1] == "python -m acpt_check_tracking || exit 1" and lines[-1] == "python train.py"


def test_dockerfile_recipe_builds_with_unix_line_endings(tmp_path):
    dockerfile = tmp_path / "Dockerfile"
    dockerfile.write_bytes(b"FROM ubuntu:22.04\r\nRUN apt-get update\r\n")
    req = tmp_path / "requirements.txt"
    req.write_text("requests==2.32.0\n")
    env = Environment.from_dockerfile("df-env", str(dockerfile), pip_requirements=str(req))
    v2 = job(env, tmp_path / "ctx")
    folder = v2.environment.build.path
    text = open(os.path.join(folder, "Dockerfile"), "rb").read()
    assert b"\r" not in text and text.startswith(b"FROM ubuntu:22.04\nRUN apt-get update\n")
    assert b"conda env create -p /azureml-envs/acpt-estimator" in text
    conda = yaml.safe_load(open(os.path.join(folder, "conda_dependencies.yml")))
    assert pip_of(conda) == ["requests==2.32.0", "mlflow-skinny", "azureml-mlflow"]


def test_docker_build_context_is_used_as_is(tmp_path):
    (tmp_path / "ctx").mkdir()
    (tmp_path / "ctx" / "my.Dockerfile").write_text("FROM python:3.11\n")
    context = DockerBuildContext.from_local_directory(workspace=None, path=str(tmp_path / "ctx"),
                                                      dockerfile_path="my.Dockerfile")
    v2 = job(Environment.from_docker_build_context("ctx-env", context), tmp_path)
    assert (v2.environment.build.path, v2.environment.build.dockerfile_path) == (str(tmp_path / "ctx"), "my.Dockerfile")
    with pytest.raises(UserErrorException, match="must be a folder containing 'Dockerfile'"):
        DockerBuildContext.from_local_directory(None, str(tmp_path))


def test_clone_of_a_curated_environment_builds_on_acpt_and_keeps_its_torch(tmp_path, caplog):
    env = Environment.get(workspace=None, name="AzureML-acpt-pytorch-2.8-cuda12.6").clone("my-acpt")
    env.python.conda_dependencies.add_pip_package("torch==1.6.0")
    env.python.conda_dependencies.add_pip_package("transformers==4.46.0")
    with caplog.at_level(logging.WARNING):
        v2 = job(env, tmp_path)
    dockerfile = open(os.path.join(v2.environment.build.path, "Dockerfile")).read()
    assert dockerfile.startswith(f"FROM {ACPT_IMAGE}\n")
    assert "transformers==4.46.0" in dockerfile and "torch==1.6.0" not in dockerfile
    assert "Dropping 'torch==1.6.0'" in caplog.text and "torch 2.8" in caplog.text


def test_unchanged_curated_reference_stays_a_reference(tmp_path):
    assert job(Environment.get(None, "AzureML-acpt-pytorch-2.8-cuda12.6"), tmp_path).environment == \
        "azureml:AzureML-acpt-pytorch-2.8-cuda12.6@latest"


def test_save_to_directory_and_load_round_trip(tmp_path):
    env = Environment.from_dockerfile("saved", "FROM ubuntu:22.04\n")
    env.python.user_managed_dependencies = False
    env.python.conda_dependencies.add_pip_package("numpy")
    env.environment_variables = {"A": "1"}
    env.save_to_directory(str(tmp_path / "env"))
    assert sorted(os.listdir(tmp_path / "env")) == ["BaseDockerfile", "azureml_environment.json",
                                                   "conda_dependencies.yml"]
    loaded = Environment.load_from_directory(str(tmp_path / "env"))
    assert loaded._to_dict() == env._to_dict()
    with pytest.raises(UserErrorException, match="overwrite=True"):
        env.save_to_directory(str(tmp_path / "env"))
    env.save_to_directory(str(tmp_path / "env"), overwrite=True)


def test_local_registry_versions_list_and_get(local_ws):
    first = Environment("team-env")
    assert first.register(local_ws).version == "1"
    first.python.conda_dependencies.add_pip_package("rich")
    assert first.register(local_ws).version == "2"
    listed = Environment.list(workspace=local_ws)
    assert list(listed) == ["team-env"] and listed["team-env"].version == "2"
    assert "rich" in list(Environment.get(local_ws, "team-env", version="2").python.conda_dependencies.pip_packages)
    assert "rich" not in list(Environment.get(local_ws, "team-env", version=1).python.conda_dependencies.pip_packages)
    with pytest.raises(UserErrorException, match="no version '7'"):
        Environment.get(local_ws, "team-env", version="7")
    with pytest.warns(UserWarning, match="build_local\\(workspace\\) builds it now"):
        details = Environment.build(first, local_ws)
    assert details.status == "Registered" and "build_local" in details.get_log()


def test_build_local_and_conda_export_without_the_tools_say_how_to_fix(tmp_path, monkeypatch, local_ws):
    monkeypatch.setenv("PATH", str(tmp_path))  # no docker, no conda
    with pytest.raises(UserErrorException, match="Install Docker"):
        Environment("x").build_local(local_ws)
    with pytest.raises(UserErrorException, match="needs conda on PATH"):
        Environment.from_existing_conda_environment("x", "base")


def test_image_details_name_the_image():
    assert Environment.get(None, "AzureML-acpt-pytorch-2.8-cuda12.6").get_image_details(None).image == ACPT_IMAGE
    assert Environment.from_docker_image("i", "me/img:1").get_image_details(None).repository == "me/img:1"


def test_r_spark_and_labels_refuse_naming_the_v2_replacement():
    for make in (RSection, SparkSection):
        with pytest.raises(V1NotSupportedException, match="Use instead: .*spark"):
            make()
    with pytest.raises(V1NotSupportedException, match="Environment.spark"):
        Environment("x").spark  # noqa: B018
    with pytest.raises(V1NotSupportedException, match="Environment.label"):
        Environment.label(None, "x", "1", ["prod"])


def test_estimator_conda_dependencies_changes_reach_the_job():
    est = PyTorch(SRC, compute_target="c", entry_script="train.py", use_gpu=True,
                  pip_packages=["transformers==4.46.0"], conda_packages=["scipy"])
    est.conda_dependencies.remove_conda_package("scipy")
    est.conda_dependencies.add_pip_package("datasets==3.0.0")
    dockerfile = est.to_job_spec().environment.dockerfile
    assert "scipy" not in dockerfile and "datasets==3.0.0" in dockerfile and "transformers==4.46.0" in dockerfile


def test_estimator_run_config_is_a_run_configuration_that_drives_the_job(caplog):
    from acpt_estimator.v1.core.runconfig import RunConfiguration

    est = PyTorch(SRC, compute_target="c", entry_script="train.py", node_count=2, distributed_backend="mpi",
                  process_count_per_node=2)
    rc = est.run_config
    assert isinstance(rc, RunConfiguration) and rc is est.run_config
    assert (rc.target, rc.node_count, rc.communicator, rc.mpi.process_count_per_node) == ("c", 2, "IntelMpi", 2)
    assert rc.environment.python.conda_dependencies is est.conda_dependencies
    rc.environment_variables["MY_FLAG"] = "1"
    rc.target = "other-cluster"
    rc.node_count = 8
    with caplog.at_level(logging.WARNING):
        spec = est.to_job_spec()
    assert spec.environment_variables["MY_FLAG"] == "1" and spec.compute.target == "other-cluster"
    assert spec.distribution.node_count == 2 and "est.run_config.node_count changed" in caplog.text


def test_environment_entity_is_anonymous_for_inline_environments(tmp_path):
    spec = Environment.from_docker_image("named.with.dots", "me/img:1")._to_spec()
    entity = environment_for(spec, str(tmp_path))
    assert entity.name == "CliV2AnonymousEnvironment" and entity.image == "me/img:1"


def test_v1_fields_without_a_v2_field_are_said_not_dropped_silently(tmp_path, caplog):
    env = Environment.from_docker_image("custom-python", "me/img:1")
    env.python.interpreter_path = "/opt/venv/bin/python"
    src = ScriptRunConfig(SRC, script="train.py", environment=env)
    src.run_config.credential_passthrough = True
    with caplog.at_level(logging.WARNING):
        src.to_job_spec()
    assert "python.interpreter_path is not used by v2 jobs" in caplog.text and "ENV PATH" in caplog.text
    assert "run_config.credential_passthrough is not carried" in caplog.text
    assert "UserIdentityConfiguration" in caplog.text


def test_environment_definition_without_a_name_sets_shm_size(tmp_path):
    from azureml.core.runconfig import EnvironmentDefinition

    env_def = EnvironmentDefinition()
    env_def.docker.shm_size = "16g"
    spec = PyTorch(SRC, compute_target="c", entry_script="train.py", environment_definition=env_def).to_job_spec()
    assert spec.shm_size == "16g" and spec.environment.kind == "image"
    with pytest.raises(UserErrorException, match="cannot be copied here"):
        Environment.get(None, "my-team-env").clone("copy")
