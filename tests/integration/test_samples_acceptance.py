"""Every v1-style sample driver runs unchanged with only ACPT_ESTIMATOR_TARGET=local set (issue: compat)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.integration
SAMPLES = os.path.join(os.path.dirname(__file__), os.pardir, os.pardir, "samples")


def run_driver(name: str, cwd) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ACPT_ESTIMATOR")}
    env["ACPT_ESTIMATOR_TARGET"] = "local"
    done = subprocess.run([sys.executable, os.path.join(os.path.abspath(SAMPLES), name, "driver.py")], cwd=cwd,
                          env=env, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_image_classifier_sample(tmp_path):
    out = run_driver("image_classifier", tmp_path)
    assert "SDK version:" in out and "Found existing compute target" in out  # lookups are no-ops locally
    assert "RunId: pytorch-image-classifier_" in out and "Execution Summary" in out  # RunDetails + streaming
    assert "metrics: {'lr': 0.05, 'accuracy': [" in out  # scalar once, list when repeated
    assert "'outputs/model.pt'" in out
    assert (tmp_path / "downloaded_model.pt").stat().st_size > 0
    assert "registered pytorch-classifier 1" in out
    assert os.path.isdir(tmp_path / ".acpt" / "models" / "pytorch-classifier" / "1")


def test_gloo_sample_expands_batchai_arguments_per_rank(tmp_path):
    out = run_driver("gloo_distributed", tmp_path)
    assert "rank 0/2 done, weights in sync: True" in out
    assert "status: Completed" in out and "weights_in_sync: [1, 1]" in out
    assert os.path.isdir(tmp_path / ".acpt" / "models" / "gloo-linear" / "1")


def test_pip_packages_sample(tmp_path):
    out = run_driver("pip_packages", tmp_path)
    assert "'total': [3.0, 6.0, 9.0, 12.0, 15.0]" in out and "'tqdm_version':" in out


def test_hyperdrive_tuning_sample(tmp_path):
    out = run_driver("hyperdrive_tuning", tmp_path)
    assert out.count("Started trial pytorch-hyperdrive_") == 4 and "Status: Completed" in out
    assert "best run: pytorch-hyperdrive_" in out and 'hyperparameters: {"learning_rate":' in out  # v1: a JSON string
    assert "registered pytorch-hyperdrive 1" in out


def test_pipeline_train_score_sample(tmp_path):
    out = run_driver("pipeline_train_score", tmp_path)
    assert "validation errors: []" in out and out.count("PipelineRun Status: Completed") == 2
    assert "'w': 3.0, 'b': 2.0" in out  # two MPI ranks averaged their gradients to the line the data follows
    assert "scored 12 values, e.g. part_0.csv 0.0 " in out  # ParallelRunStep's append_row file
    assert "StepRun(prep) Status: Completed (reused)" in out  # the published pipeline, resubmitted
