"""v1 ``azureml.core.script_run``: ``ScriptRun``, the run of a submitted script (local or cloud)."""

from __future__ import annotations

from acpt_estimator.v1.core.run import Run
from acpt_estimator._lazy import lazy_names


class ScriptRun(Run):
    """``exp.submit(estimator or ScriptRunConfig)`` returns one; ``ScriptRun(experiment, run_id)`` reopens one."""

    _reopens_by_id = True
    RUN_TYPE = "azureml.scriptrun"


# v1 names this module also exported, defined elsewhere: resolved on first use (v1-importable.json).
__getattr__, __dir__ = lazy_names(__name__, {
    **dict.fromkeys(["AzureMLException", "UserErrorException"], "acpt_estimator.exceptions"),
    "Run": "acpt_estimator.v1.core.run",
    "RunConfiguration": "acpt_estimator.v1.core.runconfig",
})
