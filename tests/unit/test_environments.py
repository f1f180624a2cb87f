"""framework_version/use_gpu/packages -> the right ACPT environment; equal inputs give one name+version."""

import os

import pytest

from acpt_estimator import Environment, PyTorch
from acpt_estimator.backends.azureml.command_line import render_command
from acpt_estimator.backends.azureml.translate import environment_for, write_build_context
from acpt_estimator import environments
from acpt_estimator.environments import catalog, default_acpt

from .golden_cases import SRC


def env(**kwargs):
    return PyTorch(SRC, compute_target="c", entry_script="train.py", **kwargs).to_job_spec().environment


def test_catalog_has_one_default_and_it_is_active():
    defaults = [e for e in catalog() if e.default]
    assert len(defaults) == 1 and defaults[0].status == "active"
    assert default_acpt().image == "mcr.microsoft.com/azureml/curated/acpt-pytorch-2.8-cuda12.6:latest"


def test_gpu_without_packages_is_curated_reference():
    assert environment_for(env(use_gpu=True)) == "azureml:AzureML-acpt-pytorch-2.8-cuda12.6@latest"


def test_framework_version_picks_matching_acpt():
    assert env(use_gpu=True, framework_version="1.13").name == "AzureML-acpt-pytorch-1.13-cuda11.7"


def test_removed_acpt_version_is_refused_with_the_supported_list():
    with pytest.raises(Exception, match=r"framework_version='2.0' must be a string, one of"):
        env(use_gpu=True, framework_version="2.0")


def test_packages_build_from_acpt_image_with_content_hash():
    a = env(use_gpu=True, pip_packages=["transformers==4.46.0"])
    b = env(use_gpu=True, pip_packages=["transformers==4.46.0"])
    c = env(use_gpu=True, pip_packages=["transformers==4.47.0"])
    assert a.kind == "build" and a.dockerfile.startswith("FROM mcr.microsoft.com/azureml/curated/acpt-pytorch-2.8")
    assert (a.name, a.version) == (b.name, b.version) and a.version != c.version


def test_build_context_is_written_once(tmp_path):
    spec = env(use_gpu=True, pip_requirements_file="requirements.txt")
    folder, dockerfile = write_build_context(spec, str(tmp_path))
    assert sorted(os.listdir(folder)) == ["Dockerfile", "requirements.txt"] and dockerfile == "Dockerfile"
    text = open(os.path.join(folder, "Dockerfile"), "rb").read()
    assert b"pip install --no-cache-dir -r /tmp/requirements.txt" in text and b"\r\n" not in text
    assert write_build_context(spec, str(tmp_path)) == (folder, "Dockerfile")


def test_cpu_job_gets_cpu_torch():
    spec = env()
    assert spec.kind == "image" and "torch==2.8.*" in spec.conda_file and "whl/cpu" in spec.conda_file


@pytest.mark.parametrize("torch_version", sorted({e.torch for e in catalog()}))
def test_cpu_environment_without_packages_is_the_general_paths_spec(torch_version):
    """The CPU environment's text is written from constants (no yaml import): it must be, byte for byte, what the
    general path (conda_yaml, then the parse and runtime-package check) makes, or content hashes would drift."""
    general_text = environments.conda_yaml(
        (), environments.cpu_torch_pip_items(torch_version) + list(environments.RUNTIME_PIP_PACKAGES), "3.10")
    assert environments.cpu_conda_text(torch_version) == general_text
    image = environments.DEFAULT_CPU_IMAGE
    assert (environments.image_environment(image, environments.cpu_conda_text(torch_version), written_here=True)
            == environments.image_environment(image, general_text))


def test_cpu_job_with_packages_takes_the_general_path():
    spec = env(pip_packages=["numpy==1.26.4"], conda_packages=["scipy=1.11"])
    assert "  - numpy==1.26.4\n" in spec.conda_file and "- scipy=1.11\n" in spec.conda_file
    assert spec.version != env().version and spec.name == env().name == "acpt-estimator-cpu"


def test_custom_image_gets_what_run_log_needs_as_v1_added_azureml_defaults():
    spec = env(custom_docker_image="me/img:1")
    assert (spec.kind, spec.image) == ("image", "me/img:1")
    assert "- mlflow-skinny" in spec.conda_file and "- azureml-mlflow" in spec.conda_file and not spec.user_managed


def test_user_managed_installs_nothing_and_checks_tracking_at_job_start():
    spec = PyTorch(SRC, compute_target="c", entry_script="train.py", custom_docker_image="me/img:1",
                   user_managed=True).to_job_spec()
    assert spec.environment.conda_file is None and spec.environment.user_managed
    lines = render_command(spec).splitlines()
    assert lines[lines.index("python -m acpt_check_tracking || exit 1") - 1].startswith("export PYTHONPATH=")


def test_environment_definition_old_curated_name_maps_forward(caplog):
    spec = env(environment_definition=Environment.get(None, "AzureML-PyTorch-1.6-GPU"))
    assert spec.name == "AzureML-acpt-pytorch-2.8-cuda12.6"
    assert "AzureML-PyTorch-1.6-GPU" in caplog.text


def test_environment_definition_pins_curated_version():
    spec = env(environment_definition=Environment.get(None, "AzureML-acpt-pytorch-2.2-cuda12.1", version="33"))
    assert environment_for(spec) == "azureml:AzureML-acpt-pytorch-2.2-cuda12.1:33"


def test_registered_environment_avoids_sdk_lookup_bug_and_checks_tracking_first():
    spec = PyTorch(SRC, compute_target="c", entry_script="train.py",
                   environment_definition=Environment.get(None, "my-env")).to_job_spec()
    assert environment_for(spec.environment) == "my-env@latest"
    assert "python -m acpt_check_tracking || exit 1" in render_command(spec).splitlines()


def test_override_variable_pins_gpu_environment(monkeypatch):
    monkeypatch.setenv("ACPT_ESTIMATOR_ENVIRONMENT", "AzureML-acpt-pytorch-2.2-cuda12.1:33")
    assert environment_for(env(use_gpu=True)) == "azureml:AzureML-acpt-pytorch-2.2-cuda12.1:33"
