"""samples/pytorch_mpi_local runs unchanged: with compute_target='local', and with a cloud target forced local."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.integration

DRIVER = os.path.join(os.path.dirname(__file__), os.pardir, os.pardir, "samples", "pytorch_mpi_local", "driver.py")


@pytest.mark.parametrize("how", ["compute_target_local", "forced_by_environment"])
def test_v1_style_sample_driver_trains_and_registers_a_model(tmp_path, how):
    env = {k: v for k, v in os.environ.items() if k not in ("ACPT_ESTIMATOR_TARGET", "ACPT_ESTIMATOR_HOME")}
    argv = [sys.executable, os.path.abspath(DRIVER), "--epochs", "5"]
    if how == "compute_target_local":
        # A real project has a config.json; a local run reads it but contacts nothing.
        (tmp_path / "config.json").write_text(json.dumps(
            {"subscription_id": "00000000-0000-0000-0000-000000000000", "resource_group": "rg",
             "workspace_name": "ws"}))
    else:
        env["ACPT_ESTIMATOR_TARGET"] = "local"
        argv += ["--compute-target", "cpu-cluster"]
    done = subprocess.run(argv, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    assert "Streaming user_logs/std_log_process_0.txt" in out and "rank 0 epoch 4 loss" in out
    assert "status: Completed" in out and "logged values: 10" in out and "ranks in sync: 1" in out
    assert "registered: pytorch-mpi-local version 1" in out
    assert (tmp_path / "model.pt").stat().st_size > 0
    assert os.listdir(tmp_path / ".acpt" / "models") == ["pytorch-mpi-local"]
