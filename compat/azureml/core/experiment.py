"""Shim for ``azureml.core.experiment``."""
from acpt_estimator.experiment import Experiment  # noqa: F401
