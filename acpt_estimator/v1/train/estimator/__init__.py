"""v1 ``azureml.train.estimator``."""

from acpt_estimator.v1.train.estimator.estimator import Estimator

__all__ = ["Estimator"]
