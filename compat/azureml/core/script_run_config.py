"""Shim for ``azureml.core.script_run_config``."""
from acpt_estimator.v1.core.script_run_config import ScriptRunConfig, get_run_config_from_script_run, submit  # noqa: F401
