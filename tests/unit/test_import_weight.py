"""Importing the estimator path must stay light: no azure.ai.ml, torch or mlflow (they cost seconds)."""

import subprocess
import sys

HEAVY = ("azure.ai.ml", "azure.identity", "torch", "mlflow")


def test_estimator_path_pulls_no_heavy_modules():
    code = ("import sys; import acpt_estimator; from acpt_estimator import PyTorch, Mpi; "
            "from acpt_estimator.v1.core.experiment import Experiment; from acpt_estimator.v1.core.workspace import Workspace; "
            f"print([m for m in {HEAVY!r} if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
