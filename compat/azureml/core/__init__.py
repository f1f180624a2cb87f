"""Shim for ``azureml.core``: re-exports from acpt_estimator (see README, "Import shims")."""

from acpt_estimator._v1_guard import check_no_real_azureml_core

check_no_real_azureml_core()

from acpt_estimator import VERSION  # noqa: E402
from acpt_estimator.compute import ComputeTarget  # noqa: E402
from acpt_estimator.data import Datastore  # noqa: E402
from acpt_estimator.dataset import Dataset  # noqa: E402
from acpt_estimator.environment import Environment  # noqa: E402
from acpt_estimator.experiment import Experiment  # noqa: E402
from acpt_estimator.model import Model  # noqa: E402
from acpt_estimator.run import Run  # noqa: E402
from acpt_estimator.runconfig import RunConfiguration  # noqa: E402
from acpt_estimator.script_run_config import ScriptRunConfig  # noqa: E402
from acpt_estimator.workspace import Workspace  # noqa: E402

__all__ = ["ComputeTarget", "Dataset", "Datastore", "Environment", "Experiment", "Model", "Run", "RunConfiguration",
           "ScriptRunConfig", "VERSION", "Workspace"]
