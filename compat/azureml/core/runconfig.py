"""Shim for ``azureml.core.runconfig``."""
from acpt_estimator.distribution import MpiConfiguration, PyTorchConfiguration, TensorflowConfiguration  # noqa: F401
from acpt_estimator.runconfig import DockerConfiguration, RunConfiguration  # noqa: F401
