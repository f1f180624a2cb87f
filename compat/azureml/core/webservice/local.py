"""Shim for ``azureml.core.webservice.local``: re-exports ``acpt_estimator.v1.core.webservice.local``."""
from acpt_estimator.v1.core.webservice.local import *  # noqa: F401,F403
from acpt_estimator.v1.core.webservice.local import __all__  # noqa: F401
