"""Shim for ``azureml.core.compute.computeinstance``: re-exports ``acpt_estimator.v1.core.compute.computeinstance``."""
from acpt_estimator.v1.core.compute.computeinstance import *  # noqa: F401,F403
from acpt_estimator.v1.core.compute.computeinstance import __all__, __dir__, __getattr__  # noqa: F401
