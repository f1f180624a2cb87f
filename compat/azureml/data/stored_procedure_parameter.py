"""Shim for ``azureml.data.stored_procedure_parameter``."""
from acpt_estimator.v1.data.stored_procedure_parameter import *  # noqa: F401,F403
from acpt_estimator.v1.data.stored_procedure_parameter import __all__  # noqa: F401
