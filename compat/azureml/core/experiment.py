"""Shim for ``azureml.core.experiment``: re-exports ``acpt_estimator.v1.core.experiment``."""
from acpt_estimator.v1.core.experiment import *  # noqa: F401,F403
from acpt_estimator.v1.core.experiment import __dir__, __getattr__  # noqa: F401
