"""Every import line of spec/compat-surface.md §2 resolves, and the shims are the acpt_estimator objects."""

import importlib
import inspect
import pathlib
import subprocess
import sys

import pytest

import acpt_estimator
from acpt_estimator import distribution, exceptions
from acpt_estimator.v1.core import runconfig
from acpt_estimator.v1.core.compute import computeinstance
from acpt_estimator.v1.train import hyperdrive

COMPAT = pathlib.Path(__file__).resolve().parents[2] / "compat"
SHIM_MODULES = sorted(
    ".".join(p.relative_to(COMPAT).with_suffix("").parts).removesuffix(".__init__")
    for p in COMPAT.rglob("*.py"))
# Import lines of compat-surface.md §2 (module, name): each name resolves from its shim.
IMPORT_LINES = [
    ("azureml.core", n) for n in ("Workspace", "Experiment", "Run", "Datastore", "Dataset", "Environment",
                                  "ScriptRunConfig", "ComputeTarget", "VERSION", "Model", "RunConfiguration")
] + [
    ("azureml.core.workspace", "Workspace"), ("azureml.core.experiment", "Experiment"), ("azureml.core.run", "Run"),
    ("azureml.core.compute", "ComputeTarget"), ("azureml.core.compute", "AmlCompute"),
    ("azureml.core.compute_target", "ComputeTargetException"), ("azureml.core.runconfig", "RunConfiguration"),
    ("azureml.core.runconfig", "MpiConfiguration"), ("azureml.core.runconfig", "PyTorchConfiguration"),
    ("azureml.core.conda_dependencies", "CondaDependencies"), ("azureml.core.environment", "Environment"),
    ("azureml.core.model", "Model"), ("azureml.core.script_run_config", "ScriptRunConfig"),
    ("azureml.data.data_reference", "DataReference"), ("azureml.train.dnn", "PyTorch"), ("azureml.train.dnn", "Mpi"),
    ("azureml.train.dnn", "Gloo"), ("azureml.train.dnn", "Nccl"), ("azureml.train.estimator", "Estimator"),
    ("azureml.exceptions", "TrainingException"), ("azureml.exceptions", "UserErrorException"),
    ("azureml.exceptions", "ActivityFailedException"), ("azureml.widgets", "RunDetails"),
    ("azureml.telemetry", "set_diagnostics_collection"), ("azureml.train.hyperdrive", "HyperDriveConfig"),
    ("azureml.train.hyperdrive", "RandomParameterSampling"), ("azureml.train.hyperdrive", "BanditPolicy"),
    ("azureml.train.hyperdrive", "PrimaryMetricGoal"), ("azureml.train.hyperdrive", "uniform"),
    ("azureml.train.hyperdrive", "choice"), ("azureml.train.hyperdrive", "loguniform"),
]


@pytest.mark.parametrize("module, name", IMPORT_LINES, ids=[f"{m}.{n}" for m, n in IMPORT_LINES])
def test_v1_import_line_resolves(module, name):
    assert getattr(importlib.import_module(module), name) is not None


@pytest.mark.parametrize("module", SHIM_MODULES)
def test_shim_re_exports_the_v1_tree_at_the_same_path(module):
    """compat/azureml/<path> serves acpt_estimator.v1.<path>'s objects where that module exists."""
    shim = importlib.import_module(module)
    mirror = importlib.import_module("acpt_estimator.v1." + module.removeprefix("azureml."))
    names = [n for n in getattr(shim, "__all__", dir(shim))
             if not n.startswith("_") and not inspect.ismodule(getattr(shim, n))]
    for name in names:
        assert getattr(shim, name) is getattr(mirror, name), f"{module}.{name}"


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
    from acpt_estimator.v1.core import authentication

    assert importlib.import_module("azureml.core.authentication").ServicePrincipalAuthentication \
        is authentication.ServicePrincipalAuthentication
    assert importlib.import_module("azureml.core.runconfig").DockerConfiguration is runconfig.DockerConfiguration
    assert importlib.import_module("azureml.core.compute").ComputeInstance is computeinstance.ComputeInstance


@pytest.mark.parametrize("module, name, use", [
    ("azureml.core.webservice", "AciWebservice", lambda c: c.deploy_configuration(cpu_cores=1, memory_gb=1)),
    ("azureml.core.webservice", "Webservice", lambda c: c(None, "svc")),
    ("azureml.core.model", "InferenceConfig", lambda c: c(entry_script="score.py")),
    ("azureml.core.image", "ContainerImage", lambda c: c.image_configuration(execution_script="score.py")),
    ("azureml.train.dnn", "TensorFlow", lambda c: c(".", entry_script="train.py")),
    ("azureml.pipeline.core", "Pipeline", lambda c: c.load_yaml(None, "pipeline.yml")),
    ("azureml.pipeline.core.graph", "Graph", lambda c: c("graph", None)),
])
def test_out_of_scope_v1_names_import_and_refuse_with_the_v2_replacement(module, name, use):
    """compat-surface.md §2 also lists deployment, TensorFlow and pipeline imports: they resolve, and using them
    says what SDK v2 offers instead (drivers that train and then deploy fail at the deploy line, not at import)."""
    from acpt_estimator.exceptions import V1NotSupportedException

    cls = getattr(importlib.import_module(module), name)
    with pytest.raises(V1NotSupportedException,
                       match=rf"{name}(\.\w+)? is not supported by acpt-estimator.*Use instead:.*(v2|Estimator)"):
        use(cls)
