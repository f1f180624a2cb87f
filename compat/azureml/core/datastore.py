"""Shim for ``azureml.core.datastore``."""
from acpt_estimator.v1.core.datastore import Datastore  # noqa: F401
