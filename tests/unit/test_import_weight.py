"""Importing the estimator path must stay light: no azure.ai.ml, torch or mlflow (they cost seconds)."""

import json
import os
import subprocess
import sys

HEAVY = ("azure.ai.ml", "azure.identity", "torch", "mlflow")


def test_estimator_path_pulls_no_heavy_modules():
    code = ("import sys; import acpt_estimator; from acpt_estimator import PyTorch, Mpi; "
            "from acpt_estimator.v1.core.experiment import Experiment; from acpt_estimator.v1.core.workspace import Workspace; "
            f"print([m for m in {HEAVY!r} if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


DRIVER_SIDE = ("attrs", "acpt_estimator.backends.local.supervisor", "acpt_estimator.backends.local.procs",
               "acpt_estimator.backends.local.interactive", "acpt_estimator.backends.local.models")


def _loaded_by_get_context(env: dict) -> list:
    code = ("import json, sys; from acpt_estimator.v1.core.run import Run; before = set(sys.modules); "
            "run = Run.get_context(); "
            "print(json.dumps([type(run).__name__, sorted(m for m in sys.modules if m not in before)]))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env)
    return json.loads(out.stdout)


def test_get_context_outside_a_job_loads_no_backend():
    env = {k: v for k, v in os.environ.items() if not k.startswith("ACPT_ESTIMATOR_RUN")}
    kind, loaded = _loaded_by_get_context(env)
    assert kind == "_OfflineRun" and not [m for m in loaded if m.startswith("acpt_estimator.backends")], loaded


def test_get_context_in_a_rank_loads_none_of_the_drivers_machinery(tmp_path):
    """Every rank of a local job calls Run.get_context(): it needs the run's store, not what launches jobs."""
    from acpt_estimator.backends.local.store import RunPaths

    paths = RunPaths(str(tmp_path), "rank_side_run")
    os.makedirs(paths.root)
    env = dict(os.environ, ACPT_ESTIMATOR_RUN_DIR=paths.root, ACPT_ESTIMATOR_RUN_ID="rank_side_run")
    kind, loaded = _loaded_by_get_context(env)
    assert kind == "ScriptRun" and "acpt_estimator.backends.local.run" in loaded
    assert not [m for m in loaded if m in DRIVER_SIDE], loaded
