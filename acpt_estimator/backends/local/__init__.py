"""The local backend: a JobSpec runs on this machine through mpiexec and becomes a LocalRun handle in the local store.

Owns: launching and supervising ranks, the local store (runs, models, datastores, datasets, environments, secrets,
MLflow), and a local workspace's services over it (services.py; compute names stand in for this machine).
May import: the engine; never acpt_estimator.v1 (``get_run``/``list_runs`` hand users v1 runs through
``run_handle.presented``, which the public door fills in).

The store is ``$ACPT_ESTIMATOR_HOME`` (default ``./.acpt``): ``runs/<run id>/`` (run.json, snapshot/, files/,
metrics/), ``models/``, ``datastores/`` (local stand-ins for datastore paths) and ``mlflow.db`` (MLflow's SQLite store).
"""

from __future__ import annotations

from .store import HOME_VAR, home

__all__ = ["HOME_VAR", "find_run", "get_run", "home", "list_handles", "list_runs", "submit", "submit_sweep"]


def submit(spec, experiment):
    """Start ``spec`` locally; returns its LocalRun handle at once (v1's ``exp.submit``)."""
    from .procs import prefetch

    prefetch()  # a first job's probes wait on processes: they run while the rest is imported and checked
    from .run import submit as _submit

    return _submit(spec, experiment)


def submit_sweep(config, experiment, tags=None):
    """Run a HyperDriveConfig's trials locally; returns its LocalHyperDriveRun handle at once."""
    from ...hyperdrive.local import submit_sweep as _submit_sweep

    return _submit_sweep(config, experiment, tags=tags)


def install_interrupt_handlers() -> None:
    """Ctrl-C/SIGTERM end every local job first. Call from the main thread if you submit from other threads."""
    from .supervisor import install_interrupt_handlers as install

    install()


def list_runs(experiment, store_home: str | None = None) -> list:
    """The experiment's local runs, newest first, as v1 runs (a user-facing helper)."""
    from ...run_handle import presented

    return [presented(h) for h in list_handles(experiment, store_home)]


def list_handles(experiment, store_home: str | None = None) -> list:
    """The handles of the experiment's local runs, newest first."""
    from .run import LocalRun
    from .store import all_run_records, run_paths

    name = getattr(experiment, "name", experiment)
    base = store_home or home()
    from ...hyperdrive.local import SavedHyperDriveRun
    from .mlflow_sqlite import adopt_driver_runs

    adopt_driver_runs(base, name)  # runs started with mlflow.start_run() are runs of the experiment too

    return [SavedHyperDriveRun(run_paths(r["runId"], base)) if r.get("runType") == "hyperdrive" else
            LocalRun(run_paths(r["runId"], base), experiment=experiment if experiment is not name else None)
            for r in all_run_records(base) if r.get("experimentName") == name]


def get_run(run_id: str, store_home: str | None = None):
    """Reopen a local run by id (from this or an earlier process), as a v1 run (a user-facing helper)."""
    from ...exceptions import UserErrorException
    from ...run_handle import presented

    run = presented(find_run(run_id, store_home=store_home))
    if run is None:
        raise UserErrorException(
            f"No local run {run_id!r} in {store_home or home()}. Runs live under $ACPT_ESTIMATOR_HOME "
            "(default ./.acpt in the directory the driver ran from); set ACPT_ESTIMATOR_HOME to that store.")
    return run


def _is_sweep(run_json: str) -> bool:
    from .store import read_json

    try:
        return read_json(run_json).get("runType") == "hyperdrive"
    except (OSError, ValueError):
        return False


def find_run(run_id: str, experiment=None, store_home: str | None = None):
    """The local run ``run_id`` (with its experiment), or None when the store has no such run."""
    import os

    from .run import LocalRun
    from .store import run_paths

    paths = run_paths(run_id, store_home)
    if not os.path.isfile(paths.run_json):
        return None
    if _is_sweep(paths.run_json):
        from ...hyperdrive.local import SavedHyperDriveRun

        return SavedHyperDriveRun(paths)
    return LocalRun(paths, experiment=experiment)
