"""Shim for ``azureml.core.compute.synapse``: re-exports ``acpt_estimator.v1.core.compute.synapse``."""
from acpt_estimator.v1.core.compute.synapse import *  # noqa: F401,F403
from acpt_estimator.v1.core.compute.synapse import __all__  # noqa: F401
