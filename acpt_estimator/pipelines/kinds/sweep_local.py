"""A "sweep" step on this machine: the local HyperDrive engine runs the trials; the step's outputs are the best
trial's, and its TrainingOutputs (the trials' metrics as JSON, the best trial's model file) are written after them."""

from __future__ import annotations

import json
import logging
import os
import shutil

logger = logging.getLogger(__name__)
class SweepStepRun:
    """The step's run in the local DAG: the sweep's handle, plus its display name, its pipeline as parent, and its
    outputs (written once the trials have ended, before the step reports Completed)."""

    def __init__(self, sweep, step, store_home: str):
        self._sweep, self._step, self._store_home = sweep, step, store_home
        self._outputs: dict | None = None
        self._failure: str | None = None

    def __getattr__(self, name):  # the rest of the run protocol is the sweep's (v1 wraps it in a HyperDriveRun)
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self._sweep, name)

    @property
    def display_name(self) -> str:
        return self._step.display_name or self._step.name

    def get_status(self) -> str:
        status = self._sweep.get_status()
        if status == "Completed" and self._outputs is None and self._failure is None:
            try:
                self._outputs = self._write_outputs()
            except Exception as err:  # noqa: BLE001 - a step whose outputs cannot be written has failed
                self._failure = f"HyperDriveStep {self.display_name!r}: {type(err).__name__}: {err}"
                logger.error("%s", self._failure)
        return "Failed" if self._failure else status

    def output_folders(self, store_home: str) -> dict:
        return dict(self._outputs or {})

    def _best(self):
        from ...hyperdrive.results import best_completed_trial

        best = best_completed_trial(self._sweep)
        if best is None:
            name = self._step.sweep.primary_metric_name
            raise RuntimeError(f"no completed trial logged the primary metric {name!r}, so there is no best "
                               "trial whose outputs the step could pass on; log it with run.log(name, value).")
        return best

    def _write_outputs(self) -> dict:
        """Trial outputs: the best trial's folders (as a v2 sweep node's); TrainingOutputs written here."""
        from ...backends.local.store import datastore_folder
        from ..local import _output_folders

        folders = {}
        training = self._step.sweep.training_outputs
        best = self._best() if self._step.job.outputs or any(t.type == "Model" for t in training) else None
        if best is not None and self._step.job.outputs:
            folders.update(_output_folders(self._step.job, best, self._store_home))
        for item in training:
            out = item.output
            path = out.path_on_datastore.replace("{run-id}", self._sweep.id).replace("{output-name}", out.name)
            target = datastore_folder(self._store_home, out.datastore or "workspaceblobstore", path)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            if item.type == "Metrics":  # v1: one JSON file, {trial run id: that trial's metrics}
                metrics = {child.id: child.get_metrics() for child in self._sweep.get_children()}
                with open(target, "w", encoding="utf-8") as handle:
                    json.dump(metrics, handle, default=str)
            elif item.model_file:
                best.download_file(item.model_file, target)
            else:
                shutil.rmtree(target, ignore_errors=True)
                best.download_files(prefix="outputs/", output_directory=target, append_prefix=False)
            folders[out.name] = target
        return folders


def start(step, job, experiment, parent_run_id: str, store_home: str) -> SweepStepRun:
    """Start the step's trials through the local HyperDrive engine; returns its run at once."""
    from ...hyperdrive.local import submit_sweep
    from .sweep_config import StepSweepConfig

    sweep = submit_sweep(StepSweepConfig(step.sweep, job), experiment, parent_run_id=parent_run_id,
                         display_name=step.display_name)
    return SweepStepRun(sweep, step, store_home)
