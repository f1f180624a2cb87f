"""Shim for ``azureml.data.abstract_datastore``: re-exports ``acpt_estimator.v1.data.abstract_datastore``."""
from acpt_estimator.v1.data.abstract_datastore import *  # noqa: F401,F403
from acpt_estimator.v1.data.abstract_datastore import __all__  # noqa: F401
