"""The backend run handle: what a backend returns for a run, and what v1's ``Run`` classes are written over.

A handle is a plain object of the backend (``backends/local/run.py`` LocalRun, ``backends/azureml/run.py``
CloudRun, ...); it never subclasses a v1 class. ``acpt_estimator.v1.core.run.Run`` wraps one (``Run._over(handle)``)
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

TERMINAL_STATUSES = ("Completed", "Failed", "Canceled")
