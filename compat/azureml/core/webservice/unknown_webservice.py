"""Shim for ``azureml.core.webservice.unknown_webservice``."""
from acpt_estimator.v1.core.webservice.unknown_webservice import *  # noqa: F401,F403
from acpt_estimator.v1.core.webservice.unknown_webservice import __all__  # noqa: F401
