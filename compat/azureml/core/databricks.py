"""Shim for ``azureml.core.databricks``: re-exports ``acpt_estimator.v1.core.databricks``."""
from acpt_estimator.v1.core.databricks import *  # noqa: F401,F403
from acpt_estimator.v1.core.databricks import __all__  # noqa: F401
