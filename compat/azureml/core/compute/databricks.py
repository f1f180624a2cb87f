"""Shim for ``azureml.core.compute.databricks``: re-exports ``acpt_estimator.v1.core.compute.databricks``."""
from acpt_estimator.v1.core.compute.databricks import *  # noqa: F401,F403
from acpt_estimator.v1.core.compute.databricks import __all__  # noqa: F401
