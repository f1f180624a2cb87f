"""Shim for ``azureml.core.compute.kubernetescompute``."""
from acpt_estimator.v1.core.compute.kubernetescompute import *  # noqa: F401,F403
from acpt_estimator.v1.core.compute.kubernetescompute import __all__  # noqa: F401
