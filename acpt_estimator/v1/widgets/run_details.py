"""v1 ``azureml.widgets.run_details``: ``RunDetails`` (see ``azureml.widgets``)."""

from acpt_estimator.v1.widgets import RunDetails  # noqa: F401

__all__ = ["RunDetails"]
