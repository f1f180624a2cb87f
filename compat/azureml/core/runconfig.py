"""Shim for ``azureml.core.runconfig``."""
from acpt_estimator.v1.core.runconfig import (DockerConfiguration, MpiConfiguration, PyTorchConfiguration,  # noqa: F401
                                              RunConfiguration, TensorflowConfiguration)
