"""v1 ``azureml.data.dataset_profile_run_config``: refuses on use, naming the replacement."""

from acpt_estimator.exceptions import UserErrorException  # noqa: F401
from acpt_estimator.v1._no_equivalent import define
from acpt_estimator.v1.core.compute.compute import ComputeTarget  # noqa: F401
from acpt_estimator.v1.core.experiment import Experiment  # noqa: F401
from acpt_estimator.v1.core.run import get_run  # noqa: F401
from acpt_estimator.v1.core.runconfig import RunConfiguration  # noqa: F401
from acpt_estimator.v1.core.script_run_config import ScriptRunConfig  # noqa: F401
from acpt_estimator.v1.data.dataset_profile_run import DatasetProfileRun  # noqa: F401
from acpt_estimator.v1.data.tabular_dataset import TabularDataset  # noqa: F401

__all__ = sorted(define(globals()) + ["ComputeTarget", "DatasetProfileRun", "Experiment", "RunConfiguration",
                                      "ScriptRunConfig", "TabularDataset", "UserErrorException", "get_run"])
