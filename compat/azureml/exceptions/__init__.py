"""Shim for ``azureml.exceptions``: v1 exception classes."""
from acpt_estimator.exceptions import *  # noqa: F401,F403
from acpt_estimator.exceptions import __all__  # noqa: F401
