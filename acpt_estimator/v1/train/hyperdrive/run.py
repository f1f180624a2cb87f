"""v1 ``azureml.train.hyperdrive.run``: ``HyperDriveRun``, the parent run of a sweep (local or cloud)."""

from __future__ import annotations

from acpt_estimator.hyperdrive.results import HyperDriveResults
from acpt_estimator.v1._refusal import refused
from acpt_estimator.v1.core.run import Run
from acpt_estimator._lazy import lazy_names


class HyperDriveRun(HyperDriveResults, Run):
    """``exp.submit(HyperDriveConfig)`` returns one; ``HyperDriveRun(experiment, run_id)`` reopens one.

    Written once over the backend's sweep handle: it knows the primary metric (``_primary()``) and each trial's
    sampled values (``_hyperparameters_of(child)``); the results (best run, sorted children) are computed here.
    """

    _reopens_by_id = True
    RUN_TYPE = "hyperdrive"
    HYPER_DRIVE_RUN_USER_AGENT = "sdk_run_hyper_drive"

    @classmethod
    def _reopen(cls, experiment, run_id, hyperdrive_config=None, **kwargs):
        run = super()._reopen(experiment, run_id)
        if hyperdrive_config is not None:
            run._config = hyperdrive_config
        return run

    @property
    def _config(self):
        return getattr(self._handle, "_config", None)

    @_config.setter
    def _config(self, config):
        self._handle._config = config

    def _primary(self) -> tuple[str, bool]:
        return self._handle._primary()

    def _hyperparameters_of(self, child):
        return self._handle._hyperparameters_of(child)

    @property
    def hyperdrive_config(self):
        """The HyperDriveConfig this run was submitted with (None for a run reopened by id)."""
        return self._config

    get_diagnostics = refused(
        "HyperDriveRun.get_diagnostics", "v2 sweeps keep no diagnostics bundle; their log is azureml-logs/hyperdrive.txt.",
        "hyperdrive_run.get_all_logs() or ml_client.jobs.download(sweep_id, all=True)")


# v1 names this module also exported, defined elsewhere: resolved on first use (v1-importable.json).
__getattr__, __dir__ = lazy_names(__name__, {
    **dict.fromkeys(["HyperDriveNotImplemented", "HyperDriveRunCancellationError", "InvalidType"],
        "acpt_estimator.v1.train.hyperdrive.error_definition"),
    **dict.fromkeys(["HyperDriveConfigException", "TrainingException"], "acpt_estimator.exceptions"),
    **dict.fromkeys(["ErrorResponseException", "HyperDriveNotImplementedException"],
        "acpt_estimator.v1.train.hyperdrive.exceptions"),
    **dict.fromkeys(["HyperDriveConfig", "PrimaryMetricGoal", "TERMINAL_STATES", "scrubbed_data"],
        "acpt_estimator.v1.train.hyperdrive.runconfig"),
    "Experiment": "acpt_estimator.v1.core.experiment",
    "Run": "acpt_estimator.v1.core.run",
    "Workspace": "acpt_estimator.v1.core.workspace",
})
