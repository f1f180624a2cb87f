"""Shim for ``azureml.core.conda_dependencies``: re-exports ``acpt_estimator.v1.core.conda_dependencies``."""
from acpt_estimator.v1.core.conda_dependencies import *  # noqa: F401,F403
from acpt_estimator.v1.core.conda_dependencies import __dir__, __getattr__  # noqa: F401
