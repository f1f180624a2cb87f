"""Shim for ``azureml.core.compute.remote``: re-exports ``acpt_estimator.v1.core.compute.remote``."""
from acpt_estimator.v1.core.compute.remote import *  # noqa: F401,F403
from acpt_estimator.v1.core.compute.remote import __all__  # noqa: F401
