"""Shim for ``azureml.core.webservice.aci``: re-exports ``acpt_estimator.v1.core.webservice.aci``."""
from acpt_estimator.v1.core.webservice.aci import *  # noqa: F401,F403
from acpt_estimator.v1.core.webservice.aci import __all__  # noqa: F401
