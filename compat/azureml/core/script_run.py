"""Shim for ``azureml.core.script_run``."""
from acpt_estimator.v1.core.script_run import ScriptRun  # noqa: F401
