"""Shim for ``azureml.data.dataset_snapshot``: re-exports ``acpt_estimator.v1.data.dataset_snapshot``."""
from acpt_estimator.v1.data.dataset_snapshot import *  # noqa: F401,F403
from acpt_estimator.v1.data.dataset_snapshot import __all__  # noqa: F401
