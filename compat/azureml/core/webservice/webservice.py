"""Shim for ``azureml.core.webservice.webservice``: re-exports ``acpt_estimator.v1.core.webservice.webservice``."""
from acpt_estimator.v1.core.webservice.webservice import *  # noqa: F401,F403
from acpt_estimator.v1.core.webservice.webservice import __all__  # noqa: F401
