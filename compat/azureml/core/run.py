"""Shim for ``azureml.core.run``: ``Run.get_context()`` inside jobs, ``Run.get``/``get_run`` outside."""
from acpt_estimator.v1.core.run import InputDatasets, LinkOutput, OutputDatasets, Run, _OfflineRun, get_run  # noqa: F401
