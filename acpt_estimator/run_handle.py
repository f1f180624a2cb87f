"""The backend run handle: what a backend returns for a run, and what v1's ``Run`` classes are written over.

A handle is a plain object of the backend (``backends/local/run.py`` LocalRun, ``backends/azureml/run.py``
CloudRun, ...); it never subclasses a v1 class. ``acpt_estimator.v1.core.run.Run`` wraps one (``Run._over_handle(handle)``)
and delegates the v1 protocol to it; everything v1 adds on top (``child_run``, ``create_children``,
``get_all_logs``, recursive metrics, ``__str__``, refusals) is written once in v1/.

The protocol, by v1's names (so a handle reads like the Run it backs):
  id, run_kind ("script" | "hyperdrive"), get_status(), get_details(), wait_for_completion(show_output,
  wait_post_processing, raise_on_error), cancel(), get_portal_url()
  records:  get_metrics(name) (this run only), _write_record(kind, name, value, **extra), _store_image(...)
  tags:     get_tags(), set_tags(dict), remove_tags(list), tags, properties, add_properties(dict)
  files:    get_file_names(), download_file(name, path), download_files(...), upload_file(...), upload_folder(...)
  children: get_children(...) -> handles; _new_child(run_id, name) -> handle; _parent_id(); _number()
  models:   register_model(...) -> a model record dict (v1 wraps it in ``Model``)
  other:    display_name, description, get_environment(), _interactive, start/complete/fail (interactive runs),
            experiment (the v1 Experiment it was submitted with, or None), experiment_record() (name and workspace
            fields, for a run reopened without one)
Optional extras (``path``, ``_record()``, ``early_terminated()``...) are reached through the wrapper unchanged.
"""

from __future__ import annotations

import collections

TERMINAL_STATUSES = ("Completed", "Failed", "Canceled")
_presenter = None


def set_presenter(present) -> None:
    """The public door (``acpt_estimator/__init__``) registers v1's wrapper here, so the engine never imports v1."""
    global _presenter
    _presenter = present


def presented(handle):
    """A handle as a user sees it: the v1 run around it. Only for the engine's user-facing helpers
    (``backends.local.get_run``/``list_runs``, documented in the README); v1 code wraps handles itself."""
    return handle if _presenter is None or handle is None else _presenter(handle)


# A run's experiment as a backend knows it (v1 turns it into an ``Experiment``): its workspace and name. (Not
# typing.NamedTuple: every rank imports this module, and typing would be the only reason to load it there.)
ExperimentRef = collections.namedtuple("ExperimentRef", ["workspace", "name"])


class RunHandle:
    """Defaults every handle shares; a backend's handle overrides what its runs can do."""

    run_kind = "script"  # "hyperdrive": v1 wraps it in a HyperDriveRun
    type = "azureml.scriptrun"  # v1's run type string
    _interactive = False  # runs of experiment.start_logging() and child_run(): this process sets their status
    _experiment = None

    @property
    def experiment(self):
        """The v1 Experiment (or an ExperimentRef) the run was submitted or reopened with; None if unknown."""
        return self._experiment

    @property
    def display_name(self) -> str:
        return self.id

    @property
    def description(self):
        return None

    @property
    def tags(self) -> dict:
        return self.get_tags()

    def tag(self, key, value=None) -> None:
        self.set_tags({key: "" if value is None else value})

    def _parent_id(self):
        return None

    def _number(self):
        return None

    def _write_record(self, kind, name, value, **extra) -> None:
        raise NotImplementedError(f"{type(self).__name__} records no metrics")

    def _store_image(self, artifact, path=None, plot=None) -> None:
        raise NotImplementedError(f"{type(self).__name__} stores no images")

    def _new_child(self, run_id: str, name):
        from .exceptions import UserErrorException

        raise UserErrorException(f"{type(self).__name__} {self.id} cannot have child runs.")

    def job_inputs(self) -> tuple[dict, bool]:
        """(the run's recorded inputs, whether this process is one of the run's own processes)."""
        return {}, False

    def start(self) -> None:
        self._status_is_the_backends("start")

    def complete(self, _set_status=True) -> None:
        self._status_is_the_backends("complete")

    def fail(self, error_details=None, error_code=None, _set_status=True) -> None:
        self._status_is_the_backends("fail")

    def _status_is_the_backends(self, call: str):
        from .exceptions import UserErrorException

        raise UserErrorException(
            f"run.{call}() on {self._v1_name} {self.id}: the status of a submitted run is set by the job "
            "itself (Completed when its script exits 0, Failed otherwise). start/complete/fail apply to runs from "
            "experiment.start_logging() and run.child_run(); call run.cancel() to stop a submitted run.")

    _v1_name = "ScriptRun"
