"""Shim for ``azureml.widgets.run_details``: re-exports ``acpt_estimator.v1.widgets.run_details``."""
from acpt_estimator.v1.widgets.run_details import *  # noqa: F401,F403
from acpt_estimator.v1.widgets.run_details import __all__  # noqa: F401
