"""Shim for ``azureml.core.webservice``: re-exports ``acpt_estimator.v1.core.webservice``."""
from acpt_estimator.v1.core.webservice import *  # noqa: F401,F403
from acpt_estimator.v1.core.webservice import __all__, __dir__, __getattr__  # noqa: F401
