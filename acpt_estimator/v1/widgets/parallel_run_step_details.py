"""v1 ``azureml.widgets.parallel_run_step_details``: pipeline widget; refuses on use."""

from acpt_estimator.v1._no_equivalent import define
from acpt_estimator.v1.core.run import Run  # noqa: F401
from acpt_estimator.v1.core.workspace import Workspace  # noqa: F401

__all__ = sorted(define(globals()) + ["Run", "Workspace"])
