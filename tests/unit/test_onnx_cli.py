"""`acpt-estimator onnx export` then `onnx check`: a checkpoint to a verified ONNX file and back."""

import os
import subprocess
import sys
import textwrap

import pytest
import torch

from acpt_estimator.cli import main

NETDEF = textwrap.dedent('''
    import torch
    from torch import nn

    def make(hidden=16):
        return nn.Sequential(nn.Linear(8, hidden), nn.Tanh(), nn.Linear(hidden, 3))
''')


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    root = tmp_path_factory.mktemp("cli")
    (root / "netdef.py").write_text(NETDEF)
    for seed, name in ((0, "trained.pt"), (1, "other.pt")):
        torch.manual_seed(seed)
        net = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.Tanh(), torch.nn.Linear(16, 3))
        torch.save({"state_dict": net.state_dict()}, root / name)
    return root


@pytest.fixture(scope="module")
def exported(project):
    """Runs the export once (in this process: the dynamo exporter's first call costs seconds)."""
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        rc = main(["onnx", "export", f"{project / 'netdef.py'}:make", "--checkpoint", str(project / "trained.pt"),
                   "--example-shape", "x=2x8", "--dynamic", "x=0:batch", "--out", str(project / "net.onnx"),
                   "--int8", "--latency-batches", "1,4", "--repeats", "3"])
    return rc, out.getvalue()


def test_export_prints_the_verification_and_latency_tables(exported, project):
    rc, out = exported
    assert rc == 0, out
    assert os.path.exists(project / "net.onnx") and os.path.exists(project / "net.int8.onnx")
    assert "input  x: float32 [batch, 8]" in out and "dynamic axes: batch = x[0]" in out
    assert "fp32" in out and "int8" in out and "batch=1" in out and "batch=5" in out
    assert "latency (median of 3 runs" in out and "b4 speed-up" in out


def test_check_verifies_the_file_against_its_checkpoint_in_a_fresh_process(exported, project):
    # No --example-shape: the inputs, and which axes are dynamic, are read from the ONNX file.
    done = subprocess.run([sys.executable, "-m", "acpt_estimator.cli", "onnx", "check", "net.onnx",
                           "--factory", "netdef.py:make", "--checkpoint", "trained.pt"],
                          cwd=project, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "net.onnx against netdef.py:make + trained.pt" in done.stdout
    assert "batch=1" in done.stdout and "MISMATCH" not in done.stdout


def test_check_against_another_checkpoint_fails_with_the_table(exported, project, capsys):
    rc = main(["onnx", "check", str(project / "net.onnx"), "--factory", f"{project / 'netdef.py'}:make",
               "--checkpoint", str(project / "other.pt"), "--example-shape", "x=3x8"])
    captured = capsys.readouterr()
    assert rc == 1
    assert "FAILED (4 case(s))" in captured.out  # the summary table
    assert "4 of 4 shape case(s) broke" in captured.err and "MISMATCH" in captured.err
    assert "disagrees with PyTorch at the example shape too" in captured.err


def test_bad_arguments_say_what_form_is_expected(project):
    with pytest.raises(SystemExit, match=r"is not \[NAME=\]DIMS"):
        main(["onnx", "export", f"{project / 'netdef.py'}:make", "--example-shape", "2,8"])
    with pytest.raises(SystemExit, match="is not MODULE:FACTORY"):
        main(["onnx", "export", "netdef", "--example-shape", "2x8"])
