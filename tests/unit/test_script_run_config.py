"""ScriptRunConfig -> JobSpec: v1 defaults, verbatim arguments, data inputs, distribution, run_config precedence."""

from __future__ import annotations

import inspect
import json
import logging
import os

import pytest

from acpt_estimator.v1.core.datastore import Datastore
from acpt_estimator.v1.data.file_dataset import FileDataset
from acpt_estimator.distribution import MpiConfiguration, PyTorchConfiguration, TensorflowConfiguration
from acpt_estimator.v1.core.environment import Environment
from acpt_estimator.exceptions import RunConfigurationException, TrainingException, UserErrorException
from acpt_estimator.v1.core.runconfig import DockerConfiguration, RunConfiguration
from acpt_estimator.v1.core.script_run_config import ScriptRunConfig
from acpt_estimator.spec import InputRef, Literal
from tests.v1_signatures import PATH as SIGNATURES



class _Workspace:
    name = "ws"

    def _get_datastore(self, name):
        return Datastore(self, name)


def test_signature_matches_v1():
    spec = json.load(open(SIGNATURES))["azureml.core:ScriptRunConfig"]
    params = list(inspect.signature(ScriptRunConfig).parameters.values())
    assert [(p.name, None if p.default is p.empty else repr(p.default)) for p in params] == \
           [(p["name"], p["default"]) for p in spec]


def test_v1_defaults_local_target_and_default_environment():
    spec = ScriptRunConfig(".", script="train.py").to_job_spec(experiment_name="e", tags={"a": "b"})
    assert spec.compute.target == "local"
    assert spec.environment.kind == "image" and spec.environment.name == "default-environment"
    assert "- mlflow-skinny" in spec.environment.conda_file and "- azureml-mlflow" in spec.environment.conda_file
    assert spec.max_run_duration_seconds == 2592000
    assert spec.distribution.kind == "none" and spec.experiment_name == "e" and dict(spec.tags) == {"a": "b"}
    assert spec.source_directory == os.path.abspath(".")


def test_arguments_are_verbatim_except_data_objects():
    store = Datastore(_Workspace(), "workspaceblobstore")
    dataset = FileDataset(paths=((store, "mnist/**"),))
    arguments = ["--lr", 0.01, "--flag", "", "--none", None, "--data", dataset.as_named_input("mnist").as_mount(),
                 "--ckpt", store.path("ck/").as_download()]
    src = ScriptRunConfig(".", script="train.py", compute_target="gpu", arguments=arguments)
    spec = src.to_job_spec()
    tokens = spec.arguments
    assert tokens[:6] == (Literal("--lr"), Literal("0.01"), Literal("--flag"), Literal(""), Literal("--none"),
                          Literal("None"))
    assert tokens[7] == InputRef("mnist") and isinstance(tokens[9], InputRef)
    inputs = {i.name: i for i in spec.inputs}
    assert inputs["mnist"].uri == "azureml://datastores/workspaceblobstore/paths/mnist/"
    assert inputs["mnist"].mode == "mount"
    assert inputs[tokens[9].name].mode == "download"


def test_distributed_job_configs():
    mpi = ScriptRunConfig(".", script="t.py", compute_target="c",
                          distributed_job_config=MpiConfiguration(process_count_per_node=4, node_count=2))
    d = mpi.to_job_spec().distribution
    assert (d.kind, d.node_count, d.process_count_per_node) == ("mpi", 2, 4)
    rc = mpi.run_config
    assert (rc.framework, rc.communicator, rc.node_count) == ("Python", "IntelMpi", 2)

    ddp = ScriptRunConfig(".", script="t.py", compute_target="c",
                          distributed_job_config=PyTorchConfiguration(communication_backend="Gloo", process_count=8,
                                                                      node_count=2))
    d = ddp.to_job_spec().distribution
    assert (d.kind, d.node_count, d.process_count_per_node, d.backend) == ("pytorch", 2, 4, "gloo")

    with pytest.raises(RunConfigurationException, match="'distributed_job_config' must be"):
        ScriptRunConfig(".", script="t.py", distributed_job_config="mpi")
    with pytest.raises(TrainingException, match="TensorflowConfiguration"):
        ScriptRunConfig(".", script="t.py", distributed_job_config=TensorflowConfiguration()).to_job_spec()


def test_run_config_takes_precedence_with_a_warning(caplog):
    rc = RunConfiguration(script="from_rc.py", arguments=["--x", 1])
    rc.target = "gpu-cluster"
    rc.communicator = "IntelMpi"
    rc.mpi.process_count_per_node = 2
    rc.node_count = 3
    rc.environment_variables = {"A": "1"}
    rc.docker = DockerConfiguration(use_docker=True, shm_size="16g")
    with caplog.at_level(logging.WARNING):
        src = ScriptRunConfig(".", run_config=rc, compute_target="ignored")
    assert "will be ignored" in caplog.text
    spec = src.to_job_spec()
    assert spec.entry_script == "from_rc.py" and spec.arguments == (Literal("--x"), Literal("1"))
    assert spec.compute.target == "gpu-cluster" and spec.shm_size == "16g"
    assert (spec.distribution.kind, spec.distribution.node_count, spec.distribution.process_count_per_node) == \
           ("mpi", 3, 2)
    assert spec.environment_variables["A"] == "1"


def test_environment_command_and_errors():
    src = ScriptRunConfig(".", command=["python", "train.py", "--epochs", 3],
                          environment=Environment.get(None, "AzureML-acpt-pytorch-2.8-cuda12.6"),
                          compute_target="gpu")
    spec = src.to_job_spec()
    assert spec.command == "python train.py --epochs 3" and spec.entry_script is None
    assert (spec.environment.kind, spec.environment.name, spec.environment.label) == \
           ("curated", "AzureML-acpt-pytorch-2.8-cuda12.6", "latest")
    with pytest.raises(UserErrorException, match="both script='t.py' and command"):
        ScriptRunConfig(".", script="t.py", command="python t.py")
    with pytest.raises(UserErrorException, match="needs script="):
        ScriptRunConfig(".").to_job_spec()
    with pytest.raises(UserErrorException, match="script_params=...\\) is not supported|not supported"):
        ScriptRunConfig(".", script="t.py").to_job_spec(script_params={"--a": 1})
    with pytest.raises(UserErrorException, match="resume_from parameter should be of type DataPath"):
        ScriptRunConfig(".", script="t.py", resume_from="ckpt/")
