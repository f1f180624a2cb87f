"""Shim for ``azureml.core.webservice.container_resource_requirements``."""
from acpt_estimator.v1.core.webservice.container_resource_requirements import *  # noqa: F401,F403
from acpt_estimator.v1.core.webservice.container_resource_requirements import __all__  # noqa: F401
