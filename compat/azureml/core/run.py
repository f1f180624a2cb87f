"""Shim for ``azureml.core.run``: ``Run.get_context()`` inside jobs."""
from acpt_estimator.v1.core.run import Run  # noqa: F401
