"""Shim for ``azureml.data.sql_data_reference``: re-exports ``acpt_estimator.v1.data.sql_data_reference``."""
from acpt_estimator.v1.data.sql_data_reference import *  # noqa: F401,F403
from acpt_estimator.v1.data.sql_data_reference import __all__  # noqa: F401
