"""Shim for ``azureml.data.dataset_consumption_config``."""
from acpt_estimator.data import DatasetConsumptionConfig  # noqa: F401
