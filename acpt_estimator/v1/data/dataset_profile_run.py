"""v1 ``azureml.data.dataset_profile_run``: dataset profile runs; refuses on use, naming the replacement."""

from acpt_estimator.v1._no_equivalent import define
from acpt_estimator.v1.core.run import Run  # noqa: F401

__all__ = sorted(define(globals()) + ["Run"])
