"""v1 ``azureml.data.azure_sql_database_datastore``: refuses on use, naming the v2 workspace connection."""

from acpt_estimator.v1._no_equivalent import define
from acpt_estimator.v1.data.abstract_datastore import AbstractDatastore  # noqa: F401

__all__ = sorted(define(globals()) + ["AbstractDatastore"])
