"""Shim for ``azureml.pipeline.steps``: imports work; pipeline steps refuse, naming the v2 replacement."""
from acpt_estimator.unsupported import EstimatorStep, HyperDriveStep, PythonScriptStep  # noqa: F401
