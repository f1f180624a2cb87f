"""v1 ``azureml.data.sql_data_reference``: SQL data references; refuses on use, naming the replacement."""

from acpt_estimator.v1._no_equivalent import define
from acpt_estimator.v1.data.data_reference import DataReference  # noqa: F401

__all__ = sorted(define(globals()) + ["DataReference"])
