"""Every import line of spec/compat-surface.md §2 resolves, and the shims are the acpt_estimator objects."""

import importlib
import subprocess
import sys

import pytest

import acpt_estimator
from acpt_estimator import compute, data, dataset, distribution, environment, estimator, exceptions, experiment
from acpt_estimator import hyperdrive, model, run, runconfig, script_run_config, telemetry, widgets, workspace

IDENTITIES = [
    ("azureml.core", "Workspace", workspace.Workspace), ("azureml.core", "Experiment", experiment.Experiment),
    ("azureml.core", "Run", run.Run), ("azureml.core", "Datastore", data.Datastore),
    ("azureml.core", "Dataset", dataset.Dataset), ("azureml.core", "Environment", environment.Environment),
    ("azureml.core", "ScriptRunConfig", script_run_config.ScriptRunConfig),
    ("azureml.core", "ComputeTarget", compute.ComputeTarget), ("azureml.core", "VERSION", acpt_estimator.VERSION),
    ("azureml.core", "Model", model.Model), ("azureml.core", "RunConfiguration", runconfig.RunConfiguration),
    ("azureml.core.workspace", "Workspace", workspace.Workspace),
    ("azureml.core.experiment", "Experiment", experiment.Experiment), ("azureml.core.run", "Run", run.Run),
    ("azureml.core.compute", "ComputeTarget", compute.ComputeTarget),
    ("azureml.core.compute", "AmlCompute", compute.AmlCompute),
    ("azureml.core.compute_target", "ComputeTargetException", exceptions.ComputeTargetException),
    ("azureml.core.runconfig", "RunConfiguration", runconfig.RunConfiguration),
    ("azureml.core.runconfig", "MpiConfiguration", distribution.MpiConfiguration),
    ("azureml.core.runconfig", "PyTorchConfiguration", distribution.PyTorchConfiguration),
    ("azureml.core.conda_dependencies", "CondaDependencies", environment.CondaDependencies),
    ("azureml.core.environment", "Environment", environment.Environment),
    ("azureml.core.model", "Model", model.Model),
    ("azureml.core.script_run_config", "ScriptRunConfig", script_run_config.ScriptRunConfig),
    ("azureml.data.data_reference", "DataReference", data.DataReference),
    ("azureml.train.dnn", "PyTorch", estimator.PyTorch), ("azureml.train.dnn", "Mpi", distribution.Mpi),
    ("azureml.train.dnn", "Gloo", distribution.Gloo), ("azureml.train.dnn", "Nccl", distribution.Nccl),
    ("azureml.train.estimator", "Estimator", estimator.Estimator),
    ("azureml.exceptions", "TrainingException", exceptions.TrainingException),
    ("azureml.exceptions", "UserErrorException", exceptions.UserErrorException),
    ("azureml.exceptions", "ActivityFailedException", exceptions.ActivityFailedException),
    ("azureml.widgets", "RunDetails", widgets.RunDetails),
    ("azureml.telemetry", "set_diagnostics_collection", telemetry.set_diagnostics_collection),
    ("azureml.train.hyperdrive", "HyperDriveConfig", hyperdrive.HyperDriveConfig),
    ("azureml.train.hyperdrive", "RandomParameterSampling", hyperdrive.RandomParameterSampling),
    ("azureml.train.hyperdrive", "BanditPolicy", hyperdrive.BanditPolicy),
    ("azureml.train.hyperdrive", "PrimaryMetricGoal", hyperdrive.PrimaryMetricGoal),
    ("azureml.train.hyperdrive", "uniform", hyperdrive.uniform),
    ("azureml.train.hyperdrive", "choice", hyperdrive.choice),
    ("azureml.train.hyperdrive", "loguniform", hyperdrive.loguniform),
]


@pytest.mark.parametrize("module, name, obj", IDENTITIES, ids=[f"{m}.{n}" for m, n, _ in IDENTITIES])
def test_shim_is_the_acpt_estimator_object(module, name, obj):
    assert getattr(importlib.import_module(module), name) is obj


def test_star_import_of_hyperdrive_works():
    namespace = {}
    exec("from azureml.train.hyperdrive import *", namespace)
    assert namespace["BanditPolicy"] is hyperdrive.BanditPolicy


def test_compat_import_is_light():
    code = ("import sys; from azureml.train.dnn import PyTorch; from azureml.core import Workspace, Experiment; "
            "print(sorted(m for m in ('azure.ai.ml', 'torch', 'mlflow', 'azure.identity') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_real_azureml_core_beside_the_shims_fails_loudly(tmp_path):
    """A v1 install leaves an azureml_core-*.dist-info; importing the shim must say what to do."""
    (tmp_path / "azureml_core-1.61.0.dist-info").mkdir()
    code = f"import sys; sys.path.append({str(tmp_path)!r}); import azureml.core"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode != 0
    assert "pip uninstall -y azureml-core" in out.stderr and "separate environments" in out.stderr


def test_auth_compute_and_runconfig_extras():
    from acpt_estimator import authentication

    assert importlib.import_module("azureml.core.authentication").ServicePrincipalAuthentication \
        is authentication.ServicePrincipalAuthentication
    assert importlib.import_module("azureml.core.runconfig").DockerConfiguration is runconfig.DockerConfiguration
    assert importlib.import_module("azureml.core.compute").ComputeInstance is compute.ComputeInstance


@pytest.mark.parametrize("module, name, use", [
    ("azureml.core.webservice", "AciWebservice", lambda c: c.deploy_configuration(cpu_cores=1, memory_gb=1)),
    ("azureml.core.webservice", "Webservice", lambda c: c(None, "svc")),
    ("azureml.core.model", "InferenceConfig", lambda c: c(entry_script="score.py")),
    ("azureml.core.image", "ContainerImage", lambda c: c.image_configuration(execution_script="score.py")),
    ("azureml.train.dnn", "TensorFlow", lambda c: c(".", entry_script="train.py")),
    ("azureml.pipeline.core", "Pipeline", lambda c: c(None, steps=[])),
    ("azureml.pipeline.steps", "PythonScriptStep", lambda c: c(script_name="s.py")),
])
def test_out_of_scope_v1_names_import_and_refuse_with_the_v2_replacement(module, name, use):
    """compat-surface.md §2 also lists deployment, TensorFlow and pipeline imports: they resolve, and using them
    says what SDK v2 offers instead (drivers that train and then deploy fail at the deploy line, not at import)."""
    from acpt_estimator.exceptions import UserErrorException

    cls = getattr(importlib.import_module(module), name)
    with pytest.raises(UserErrorException, match=f"{name} is not supported by acpt-estimator.*(v2|Estimator)"):
        use(cls)
