"""v1 ``azureml.core.script_run``: ``ScriptRun``, the run of a submitted script (local or cloud)."""

from __future__ import annotations

from acpt_estimator.v1.core.run import Run


class ScriptRun(Run):
    """``exp.submit(estimator or ScriptRunConfig)`` returns one; ``ScriptRun(experiment, run_id)`` reopens one."""

    _reopens_by_id = True
    RUN_TYPE = "azureml.scriptrun"
