"""v1 ``azureml.data.dataset_snapshot``: dataset snapshots; refuses on use, naming v2 data versions."""

from acpt_estimator.v1._no_equivalent import define
from acpt_estimator.v1.data.dataset_type_definitions import HistogramCompareMethod  # noqa: F401

__all__ = sorted(define(globals()) + ["HistogramCompareMethod"])
