"""v1 ``azureml.pipeline.steps``: refused with the v2 replacement."""

from acpt_estimator.unsupported import EstimatorStep, HyperDriveStep, PythonScriptStep

__all__ = ["EstimatorStep", "HyperDriveStep", "PythonScriptStep"]
