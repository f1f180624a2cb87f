"""v1 ``azureml.data.azure_data_lake_datastore``: Data Lake datastores; refuse on use, naming the v2 call."""

from acpt_estimator.v1._no_equivalent import define
from acpt_estimator.v1.data.abstract_datastore import AbstractDatastore  # noqa: F401

__all__ = sorted(define(globals()) + ["AbstractDatastore"])
