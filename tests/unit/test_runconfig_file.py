"""v1 ``RunConfiguration``: its fields drive the job; ``.azureml/<name>.runconfig`` files save, load and delete."""

import os

import pytest
import yaml

from acpt_estimator.backends.azureml.translate import to_command
from acpt_estimator.exceptions import UserErrorException
from acpt_estimator.v1.core.runconfig import DataReferenceConfiguration, RunConfiguration
from acpt_estimator.v1.core.script_run_config import ScriptRunConfig

from .golden_cases import SRC

# As v1 wrote it (camelCase keys, conda file beside it), trimmed to the fields that matter.
V1_RUNCONFIG = """\
script: train.py
arguments: [--epochs, '3']
target: cpu-cluster
framework: Python
communicator: IntelMpi
maxRunDurationSeconds: 3600
nodeCount: 2
environment:
  name: project_environment
  version:
  environmentVariables:
    EXAMPLE_ENV_VAR: EXAMPLE_VALUE
  python:
    userManagedDependencies: false
    interpreterPath: python
    condaDependenciesFile: .azureml/conda_dependencies.yml
    baseCondaEnvironment:
  docker:
    enabled: false
    baseImage: mcr.microsoft.com/azureml/openmpi4.1.0-ubuntu22.04
    baseDockerfile:
    baseImageRegistry:
      address:
      username:
      password:
    sharedVolumes: true
    shmSize: 2g
history:
  outputCollection: true
  snapshotProject: true
  directoriesToWatch: [logs]
mpi:
  processCountPerNode: 2
environmentVariables:
  RUN_VAR: '1'
dataReferences:
  training_data:
    dataStoreName: workspaceblobstore
    mode: download
    pathOnDataStore: mnist
    pathOnCompute:
    overwrite: false
amlcompute:
  vmSize: STANDARD_D2_V2
  vmPriority:
"""
V1_CONDA = "name: project_environment\ndependencies:\n  - python=3.10\n  - pip:\n    - torchvision\n"


@pytest.fixture
def v1_project(tmp_path):
    (tmp_path / ".azureml").mkdir()
    (tmp_path / ".azureml" / "train.runconfig").write_text(V1_RUNCONFIG)
    (tmp_path / ".azureml" / "conda_dependencies.yml").write_text(V1_CONDA)
    return tmp_path


def test_a_v1_runconfig_file_loads_and_every_field_reaches_the_v2_job(v1_project, tmp_path):
    rc = RunConfiguration.load(path=str(v1_project), name="train")
    assert (rc.script, rc.target, rc.node_count, rc.mpi.process_count_per_node) == ("train.py", "cpu-cluster", 2, 2)
    assert list(rc.environment.python.conda_dependencies.pip_packages) == ["torchvision"]
    src = ScriptRunConfig(SRC, run_config=rc)
    job = to_command(src.to_job_spec(experiment_name="e"), context_root=str(tmp_path))._to_job()
    assert job.compute == "cpu-cluster" and job.resources.instance_count == 2
    assert job.distribution.process_count_per_instance == 2 and job.limits.timeout == 3600
    assert job.resources.shm_size == "2g"
    assert job.environment_variables["RUN_VAR"] == "1"
    assert job.environment_variables["EXAMPLE_ENV_VAR"] == "EXAMPLE_VALUE"
    assert job.inputs["training_data"].path == "azureml://datastores/workspaceblobstore/paths/mnist/"
    assert job.inputs["training_data"].mode == "download"
    assert job.command.splitlines()[-1] == "python train.py --epochs 3"
    pip = next(d for d in job.environment.conda_file["dependencies"] if isinstance(d, dict))["pip"]
    assert pip == ["torchvision", "mlflow-skinny", "azureml-mlflow"]


def test_save_then_load_round_trips(tmp_path):
    rc = RunConfiguration(script="train.py", arguments=["--lr", 0.1])
    rc.target = "gpu-cluster"
    rc.environment_variables = {"A": "1"}
    rc.environment.python.conda_dependencies.add_pip_package("tqdm")
    rc.data_references["ref"] = DataReferenceConfiguration("workspaceblobstore", "mount", "data/")
    rc.amlcompute.vm_size = "Standard_NC6"
    rc.save(path=str(tmp_path), name="gpu")
    saved = yaml.safe_load((tmp_path / ".azureml" / "gpu.runconfig").read_text())
    assert saved["target"] == "gpu-cluster" and saved["environment"]["python"]["condaDependenciesFile"] == \
        ".azureml/conda_dependencies.yml"
    loaded = RunConfiguration.load(str(tmp_path), "gpu")
    assert (loaded.script, loaded.arguments, loaded.target) == ("train.py", ["--lr", "0.1"], "gpu-cluster")
    assert loaded.environment_variables == {"A": "1"} and loaded.amlcompute.vm_size == "Standard_NC6"
    assert loaded.data_references["ref"].path_on_datastore == "data/"
    assert "tqdm" in list(loaded.environment.python.conda_dependencies.pip_packages)
    RunConfiguration.delete(str(tmp_path), "gpu")
    assert not os.path.exists(tmp_path / ".azureml" / "gpu.runconfig")


def test_save_to_a_file_path_and_a_separate_environment_file(tmp_path):
    rc = RunConfiguration(script="train.py")
    rc.save(path=str(tmp_path / "my.runconfig"))
    assert sorted(os.listdir(tmp_path)) == ["conda_dependencies.yml", "my.runconfig"]
    assert RunConfiguration.load(str(tmp_path / "my.runconfig")).script == "train.py"
    rc.save(path=str(tmp_path), name="split", separate_environment_yaml=True)
    assert RunConfiguration.load(str(tmp_path), "split").environment.name == "default-environment"


def test_missing_files_and_names_say_how_to_fix(tmp_path):
    with pytest.raises(UserErrorException, match="needs a name"):
        RunConfiguration().save(path=str(tmp_path))
    with pytest.raises(UserErrorException, match="Failed to load RunConfiguration .* rc.save"):
        RunConfiguration.load(str(tmp_path), "nope")
    with pytest.raises(UserErrorException, match="no .azureml/nope.runconfig"):
        RunConfiguration.delete(str(tmp_path), "nope")


def test_deprecated_and_v1_properties_are_there():
    rc = RunConfiguration()
    assert rc.auto_prepare_environment is True and rc.target == "local" and rc.environment_variables == {}
    assert "framework: Python" in str(rc)


def test_run_config_data_and_output_data_become_job_inputs_and_outputs(tmp_path):
    from acpt_estimator.v1.core.runconfig import Data, DataLocation, DataPath, OutputData

    rc = RunConfiguration(script="train.py")
    rc.data["images"] = Data(data_location=DataLocation(datapath=DataPath("workspaceblobstore", "images/")),
                             mechanism="download")
    rc.output_data["results"] = OutputData(output_location=DataLocation(datapath=DataPath("workspaceblobstore",
                                                                                          "results/")))
    job = to_command(ScriptRunConfig(SRC, run_config=rc).to_job_spec(), context_root=str(tmp_path))._to_job()
    assert job.inputs["images"].path == "azureml://datastores/workspaceblobstore/paths/images/"
    assert job.inputs["images"].mode == "download"
    assert job.outputs["results"].path == "azureml://datastores/workspaceblobstore/paths/results/"
    assert 'AZUREML_DATAREFERENCE_results="${{outputs.results}}"' in job.command
