"""Shim for ``azureml.data.dataset_consumption_config``."""
from acpt_estimator.v1.data.dataset_consumption_config import DatasetConsumptionConfig  # noqa: F401
