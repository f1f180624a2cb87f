"""Shim for ``azureml.core.experiment``."""
from acpt_estimator.v1.core.experiment import Experiment, ViewType  # noqa: F401
