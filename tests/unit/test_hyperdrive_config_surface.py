"""v1 HyperDrive configuration imports from its v1 submodules; run_config/source_directory/pipeline and the
deprecated HyperDriveRunConfig behave as in v1."""

import pytest

from acpt_estimator.v1.core.script_run_config import ScriptRunConfig

from .golden_cases import SRC


def _config(cls, **trial):
    from azureml.train.hyperdrive.parameter_expressions import choice
    from azureml.train.hyperdrive.policy import BanditPolicy
    from azureml.train.hyperdrive.runconfig import PrimaryMetricGoal
    from azureml.train.hyperdrive.sampling import RandomParameterSampling

    return cls(hyperparameter_sampling=RandomParameterSampling({"--lr": choice(0.1, 0.01)}),
               primary_metric_name="loss", primary_metric_goal=PrimaryMetricGoal.MINIMIZE, max_total_runs=4,
               policy=BanditPolicy(slack_factor=0.1), **trial)


def test_v1_submodule_imports_and_properties():
    from azureml.train.hyperdrive.runconfig import HyperDriveConfig

    src = ScriptRunConfig(SRC, script="train.py", compute_target="cpu-cluster")
    config = _config(HyperDriveConfig, run_config=src)
    assert config.run_config is src and config.source_directory == SRC and config.pipeline is None
    assert config.to_job_spec().arguments[-2:][0].value == "--lr"


def test_hyperdrive_run_config_is_the_deprecated_spelling():
    from azureml.train.hyperdrive import HyperDriveConfig, HyperDriveRunConfig

    with pytest.warns(DeprecationWarning, match="Please use HyperDriveConfig"):
        config = _config(HyperDriveRunConfig, run_config=ScriptRunConfig(SRC, script="train.py"))
    assert isinstance(config, HyperDriveConfig)
