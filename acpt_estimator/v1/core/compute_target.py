"""v1 ``azureml.core.compute_target``."""

from acpt_estimator.exceptions import ComputeTargetException

__all__ = ["ComputeTargetException"]
