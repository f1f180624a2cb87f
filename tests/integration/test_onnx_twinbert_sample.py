"""samples/twinbert_onnx runs as a v1-style local job: trains, exports three verified ONNX files, serves them."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

pytestmark = pytest.mark.integration
DRIVER = os.path.join(os.path.dirname(__file__), os.pardir, os.pardir, "samples", "twinbert_onnx", "driver.py")


def test_twinbert_sample_trains_exports_registers_and_serves_as_a_local_job(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("ACPT_ESTIMATOR")}
    env["ACPT_ESTIMATOR_TARGET"] = "local"
    # 20 steps only: this checks the plumbing; benchmarks/onnx_latency.py trains properly and reports AUCs.
    done = subprocess.run([sys.executable, os.path.abspath(DRIVER), "--steps", "20", "--pairs", "500"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=240)
    out = done.stdout
    assert done.returncode == 0, out + done.stderr
    assert "status: Completed" in out and "dynamic axes: batch = query[0], doc[0]" in out
    assert "ONNX files in the run: ['outputs/twinbert.int8.onnx', 'outputs/twinbert.onnx', " \
           "'outputs/twinbert.opt.onnx']" in out
    assert "registered: twinbert-onnx version 1" in out and "registered: twinbert-onnx-int8 version 1" in out
    rows = dict(re.findall(r"^(pytorch|fp32|ort-opt|int8)\s+\d\.\d{4}\s+([+-]\d\.\d{4})", out, re.M))
    assert set(rows) == {"pytorch", "fp32", "ort-opt", "int8"}
    assert rows["fp32"] in ("+0.0000", "-0.0000") and rows["ort-opt"] in ("+0.0000", "-0.0000")
    assert (tmp_path / "twinbert" / "twinbert.onnx").stat().st_size > 0
