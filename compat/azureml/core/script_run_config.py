"""Shim for ``azureml.core.script_run_config``."""
from acpt_estimator.v1.core.script_run_config import ScriptRunConfig  # noqa: F401
