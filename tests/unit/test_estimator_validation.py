"""Every v1 validation rule (spec/v1-api.md §1.2): the same exception class, a message naming the parameter."""

import inspect
import json

import pytest

from acpt_estimator import Datastore, Environment, Estimator, Gloo, PyTorch
from acpt_estimator.distribution import ParameterServer, PyTorchConfiguration
from acpt_estimator.exceptions import (AzureMLException, ComputeTargetException, RunConfigurationException,
                                       TrainingException, UserErrorException)

from .golden_cases import SRC
from tests.v1_signatures import PATH as SPEC

BASE = dict(compute_target="cluster", entry_script="train.py")


def make(**kwargs):
    return PyTorch(SRC, **{**BASE, **kwargs})


def raises(exc_class, *words, **kwargs):
    with pytest.raises(exc_class) as info:
        make(**kwargs)
    assert type(info.value) is exc_class
    for word in words:
        assert word in info.value.message, (word, info.value.message)
    return info.value


@pytest.mark.parametrize("cls, key", [(PyTorch, "azureml.train.dnn:PyTorch"),
                                      (Estimator, "azureml.train.estimator:Estimator")])
def test_signature_matches_v1(cls, key):
    with open(SPEC) as handle:
        expected = json.load(handle)[key]
    params = list(inspect.signature(cls).parameters.values())
    assert [p.name for p in params] == [e["name"] for e in expected]
    for param, exp in zip(params, expected):
        assert param.kind.name == exp["kind"]
        if not exp["required"]:
            assert repr(param.default) == exp["default"]


def test_rule1_no_docker_with_custom_image():
    raises(TrainingException, "use_docker", "custom_docker_image", use_docker=False, custom_docker_image="img")


def test_rule2_environment_definition_excludes_other_environment_parameters():
    err = raises(TrainingException, "environment_definition", "pip_packages",
                 environment_definition=Environment("e"), pip_packages=["x"])
    assert "Got environment_definition together with ['pip_packages']" in err.message


def test_rule2_uses_alias_names_when_alias_given():
    raises(TrainingException, "pip_requirements_file_path",
           environment_definition=Environment("e"), pip_requirements_file_path="requirements.txt")


def test_rule3_conda_file_excludes_packages():
    raises(TrainingException, "conda_dependencies_file", "pip_packages",
           conda_dependencies_file="env.yml", pip_packages=["x"])


@pytest.mark.parametrize("kwargs, word", [({"node_count": 0}, "node_count"),
                                          ({"process_count_per_node": 0}, "process_count_per_node")])
def test_rule4_counts(kwargs, word):
    raises(TrainingException, word, "at least 1", **kwargs)


def test_rule5_bad_backend():
    err = raises(TrainingException, "Unsupported distributed backend value: ps", "distributed_backend",
                 distributed_backend="ps")
    assert "['mpi', 'gloo', 'nccl']" in err.message


def test_rule5_backend_is_case_insensitive():
    assert make(distributed_backend="MPI", node_count=2).to_job_spec().distribution.kind == "mpi"


def test_rule6_parameter_server_refused():
    raises(TrainingException, "ParameterServer", "distributed_training", distributed_training=ParameterServer())


def test_rule7_user_managed_with_packages():
    raises(UserErrorException, "user_managed", "pip_packages", user_managed=True, pip_packages=["x"])


def test_rule8_distribution_needed_for_several_processes():
    raises(TrainingException, "'distributed_backend' or 'distributed_training'", "node_count=2", node_count=2)


def test_rule9_hdinsight_target():
    class HDI:
        type, name = "HDInsight", "hdi"

    raises(ComputeTargetException, "Unsupported compute target type", "compute_target", compute_target=HDI())


def test_rules10_11_relaxed_for_v2():
    """v1 refused no-target-no-vm_size and string targets for distributed jobs; v2 runs both."""
    spec = PyTorch(SRC, entry_script="train.py").to_job_spec()
    assert spec.compute.target is None and spec.compute.vm_size is None
    assert make(compute_target="gpu", node_count=4, distributed_backend="nccl").to_job_spec().distribution.node_count == 4


def test_rule12_both_image_parameters():
    raises(TrainingException, "custom_docker_base_image", custom_docker_image="a", custom_docker_base_image="b")


def test_resume_from_must_be_datapath():
    raises(UserErrorException, "resume_from parameter should be of type DataPath", resume_from="ckpt/")


def test_missing_pip_requirements_file():
    raises(UserErrorException, "nope.txt path doesn't exist", "pip requirements", pip_requirements_file="nope.txt")


def test_inputs_type():
    raises(UserErrorException, "Type <class 'str'> is not supported for inputs", inputs=["data/"])


@pytest.mark.parametrize("version", ["1.7", 1.6, "0.4"])
def test_rule13_framework_version(version):
    raises(TrainingException, f"PyTorch {version} is not currently supported", "framework_version",
           framework_version=version)


def test_v1_versions_map_forward_with_warning(caplog):
    spec = make(framework_version="1.4", use_gpu=True).to_job_spec()
    assert spec.environment.name == "AzureML-acpt-pytorch-2.8-cuda12.6"
    assert "framework_version='1.4'" in caplog.text and "AzureML-acpt-pytorch-2.8-cuda12.6" in caplog.text


def test_pytorch_configuration_bad_backend():
    with pytest.raises(RunConfigurationException, match="communication_backend"):
        PyTorchConfiguration(communication_backend="mpi")


def test_pytorch_configuration_total_count_must_divide():
    with pytest.raises(RunConfigurationException, match="process_count=3"):
        PyTorchConfiguration(process_count=3, node_count=2)


def test_exception_str_looks_like_v1():
    with pytest.raises(AzureMLException) as info:
        make(node_count=0)
    assert str(info.value).startswith("TrainingException:\n\tMessage: Node count should be at least 1.")


def test_constructor_does_not_mutate_caller_objects():
    pip, params, env = ["x==1"], {"--a": [1, 2]}, {"K": "V"}
    est = make(pip_packages=pip, script_params=params, environment_variables=env)
    est.to_job_spec(script_params={"--b": 3})
    assert pip == ["x==1"] and params == {"--a": [1, 2]} and env == {"K": "V"}


def test_only_v1_overrides_allowed_at_submit():
    with pytest.raises(TrainingException, match=r"\['foo'\] parameters cannot be overridden"):
        make().to_job_spec(foo=1)


def test_submit_override_replaces_script_params():
    spec = make(script_params={"--a": 1}).to_job_spec(script_params={"--b": 2})
    assert [t.value for t in spec.arguments] == ["--b", "2"]


def test_estimator_supports_mpi_only():
    with pytest.raises(TrainingException, match="Supported backend"):
        Estimator(SRC, compute_target="c", entry_script="train.py", distributed_backend="gloo")
    with pytest.raises(TrainingException, match="Gloo"):
        Estimator(SRC, compute_target="c", entry_script="train.py", distributed_training=Gloo())


def test_datastore_values_become_inputs():
    ws = type("W", (), {"name": "ws"})()
    spec = make(script_params={"--data": Datastore(ws).as_mount()}).to_job_spec()
    assert spec.inputs[0].uri == "azureml://datastores/workspaceblobstore/paths/"
    assert spec.inputs[0].mode == "mount"


def test_v1_arguments_without_v2_field_are_named_in_a_warning(caplog):
    make(image_registry_details=object(), use_docker=False)
    assert "image_registry_details is not used" in caplog.text and "use_docker=False has no v2 equivalent" in caplog.text
