"""v1 ``azureml.data.dbfs_datastore``: DBFS datastores; refuses on use, naming the replacement."""

from acpt_estimator.v1._no_equivalent import define
from acpt_estimator.v1.data.abstract_datastore import AbstractDatastore  # noqa: F401

__all__ = sorted(define(globals()) + ["AbstractDatastore"])
