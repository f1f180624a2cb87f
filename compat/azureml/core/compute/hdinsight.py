"""Shim for ``azureml.core.compute.hdinsight``: re-exports ``acpt_estimator.v1.core.compute.hdinsight``."""
from acpt_estimator.v1.core.compute.hdinsight import *  # noqa: F401,F403
from acpt_estimator.v1.core.compute.hdinsight import __all__  # noqa: F401
