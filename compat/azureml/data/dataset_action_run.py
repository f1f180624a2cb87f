"""Shim for ``azureml.data.dataset_action_run``: re-exports ``acpt_estimator.v1.data.dataset_action_run``."""
from acpt_estimator.v1.data.dataset_action_run import *  # noqa: F401,F403
from acpt_estimator.v1.data.dataset_action_run import __all__  # noqa: F401
