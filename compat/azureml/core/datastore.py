"""Shim for ``azureml.core.datastore``."""
from acpt_estimator.data import Datastore  # noqa: F401
