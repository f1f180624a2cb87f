"""Shim for ``azureml.core.run``: ``Run.get_context()`` inside jobs."""
from acpt_estimator.run import Run  # noqa: F401
