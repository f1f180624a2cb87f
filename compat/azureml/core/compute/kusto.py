"""Shim for ``azureml.core.compute.kusto``: re-exports ``acpt_estimator.v1.core.compute.kusto``."""
from acpt_estimator.v1.core.compute.kusto import *  # noqa: F401,F403
from acpt_estimator.v1.core.compute.kusto import __all__  # noqa: F401
