"""A local job exports with the ONNX helper into outputs/; the run lists, downloads and registers the .onnx file."""

from __future__ import annotations

import textwrap

import pytest

pytestmark = pytest.mark.integration

JOB = textwrap.dedent('''
    """A training script's last step: export the trained model, verified, next to its weights."""
    import os

    import torch
    from azureml.core import Run
    from acpt_estimator.onnx import export

    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(6, 8), torch.nn.ReLU(), torch.nn.Linear(8, 2))
    os.makedirs("outputs", exist_ok=True)
    torch.save(model.state_dict(), "outputs/tiny.pt")
    report = export(model, (torch.randn(3, 6),), "outputs/tiny.onnx", input_names=["x"], output_names=["logits"],
                    dynamic_axes={"x": {0: "batch"}}, latency=False)
    print(report)
    Run.get_context().log("onnx_max_abs_err", report.variant("fp32").max_abs)
''')


def test_a_local_run_lists_downloads_and_registers_its_onnx_output(tmp_path, monkeypatch):
    import onnxruntime as ort
    import torch

    from acpt_estimator import PyTorch
    from acpt_estimator.v1.core.experiment import Experiment
    from acpt_estimator.onnx import verify
    from acpt_estimator.v1.core.workspace import Workspace

    src = tmp_path / "src"
    src.mkdir()
    (src / "export_job.py").write_text(JOB)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("ACPT_ESTIMATOR_HOME", str(tmp_path / ".acpt"))
    monkeypatch.delenv("ACPT_ESTIMATOR_TARGET", raising=False)

    run = Experiment(Workspace._local(), "onnx-export").submit(
        PyTorch(source_directory=str(src), compute_target="local", entry_script="export_job.py"))
    details = run.wait_for_completion(show_output=False)
    assert details["status"] == "Completed"
    assert {"outputs/tiny.onnx", "outputs/tiny.pt"} <= set(run.get_file_names())
    assert run.get_metrics()["onnx_max_abs_err"] <= 1e-4

    run.download_file("outputs/tiny.onnx", output_file_path=str(tmp_path / "downloaded.onnx"))
    run.download_file("outputs/tiny.pt", output_file_path=str(tmp_path / "tiny.pt"))
    model = torch.nn.Sequential(torch.nn.Linear(6, 8), torch.nn.ReLU(), torch.nn.Linear(8, 2))
    model.load_state_dict(torch.load(tmp_path / "tiny.pt", weights_only=True))
    assert verify(tmp_path / "downloaded.onnx", model, (torch.randn(4, 6),)).ok  # the file still matches

    registered = run.register_model(model_name="tiny-onnx", model_path="outputs/tiny.onnx",
                                    model_framework="Onnx")
    assert registered.name == "tiny-onnx" and registered.version == 1
    session = ort.InferenceSession(registered.download(str(tmp_path / "served")), providers=["CPUExecutionProvider"])
    assert session.run(None, {"x": torch.randn(7, 6).numpy()})[0].shape == (7, 2)
