"""acpt_estimator.onnx.export with real exports and real ONNX Runtime: what it proves, and what it catches."""

import os
import subprocess
import sys

import pytest
import torch
from torch import nn

from acpt_estimator.onnx import OnnxExportError, OnnxVerificationError, Tolerance, export, verify


class SmallCNN(nn.Module):
    def __init__(self):
        super().__init__()
        block = lambda i, o: [nn.Conv2d(i, o, 3, padding=1), nn.BatchNorm2d(o), nn.ReLU(), nn.MaxPool2d(2)]
        self.features = nn.Sequential(*block(3, 8), *block(8, 16), *block(16, 16))
        self.head = nn.Linear(16 * 2 * 2, 10)

    def forward(self, x):
        return self.head(self.features(x).flatten(1))


class SmallEncoder(nn.Module):
    def __init__(self, vocab=100, dim=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        layer = nn.TransformerEncoderLayer(dim, 4, 64, dropout=0.0, batch_first=True)
        self.enc = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
        self.head = nn.Linear(dim, 3)

    def forward(self, ids):
        return self.head(self.enc(self.emb(ids)).mean(1))


def _seeded(cls, seed=0):
    torch.manual_seed(seed)
    return cls()


@pytest.fixture(scope="module")
def out_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("onnx")


@pytest.fixture(scope="module")
def cnn(out_dir):
    model = _seeded(SmallCNN)  # left in train mode on purpose: export must verify in eval mode and restore it
    x = torch.randn(2, 3, 16, 16)
    report = export(model, (x,), out_dir / "cnn.onnx", output_names=["logits"], dynamic_axes={"x": {0: "batch"}},
                    optimize=True, int8=True, latency_batches=(1, 4), latency_repeats=3, latency_warmup=1)
    return model, x, report


@pytest.fixture(scope="module")
def encoder(out_dir):
    model = _seeded(SmallEncoder).eval()
    ids = torch.randint(0, 100, (2, 12))
    report = export(model, (ids,), out_dir / "enc.onnx", output_names=["logits"],
                    dynamic_axes={"ids": {0: "batch", 1: "seq"}}, int8=True, latency=False)
    return model, ids, report


def _sizes(variant, dim):
    return {int(c.label.split("=")[1]) for c in variant.checks if c.label.startswith(f"{dim}=")}


def test_cnn_export_is_verified_at_several_batch_sizes(cnn):
    model, x, report = cnn
    fp32 = report.variant("fp32")
    assert report.exporter == "dynamo" and report.opset >= 18
    assert report.dynamic_dims == {"batch": ["x[0]"]}
    assert fp32.ok and fp32.max_abs <= 1e-4
    assert len(_sizes(fp32, "batch") - {2}) >= 3  # three sizes besides the example's
    assert {c.shapes["x"][0] for c in fp32.checks} >= {1, 2}
    assert model.training  # the caller's mode is given back
    text = str(report)
    assert "verification against PyTorch" in text and "batch=1" in text and "x [1, 3, 16, 16]" in text


def test_encoder_export_is_verified_along_batch_and_sequence(encoder):
    _, _, report = encoder
    fp32 = report.variant("fp32")
    assert report.inputs["ids"] == ("int64", ("batch", "seq"))
    assert fp32.ok and fp32.max_abs <= 1e-4
    assert len(_sizes(fp32, "batch")) >= 3 and len(_sizes(fp32, "seq")) >= 3
    assert any(c.label == "all varied" and c.ok for c in fp32.checks)


def test_legacy_export_of_the_encoder_is_caught_at_other_sequence_lengths(encoder, out_dir):
    model, ids, _ = encoder
    with pytest.raises(OnnxVerificationError) as caught:
        export(model, (ids,), out_dir / "enc_legacy.onnx", dynamic_axes={"ids": {0: "batch", 1: "seq"}},
               exporter="legacy", latency=False)
    message = str(caught.value)
    assert "legacy exporter" in message and "dynamo=True" in message
    assert "dynamic dim(s) seq" in message and "case 'seq=" in message and "Reshape" in message
    fp32 = caught.value.report.variant("fp32")
    by_label = {c.label: c for c in fp32.checks}
    assert by_label["example"].ok and all(c.ok for label, c in by_label.items() if label.startswith("batch="))
    assert all(c.failure for label, c in by_label.items() if label.startswith("seq="))
    assert caught.value.report.exporter == "legacy"


def test_int8_variant_is_reported_with_its_accuracy_delta(encoder):
    _, _, report = encoder
    fp32, int8 = report.variant("fp32"), report.variant("int8")
    assert int8.tolerance is None and int8.ok  # lossy: errors reported, not enforced by default
    assert 0.0 < int8.max_abs < float("inf")
    assert 0.5 <= int8.top1_agreement <= 1.0 and fp32.top1_agreement == 1.0
    assert int8.size_bytes < fp32.size_bytes
    assert len(int8.checks) == len(fp32.checks)  # the same shapes as fp32
    assert "report only" in str(report) and "top-1 agree" in str(report)


def test_int8_tolerance_when_given_is_enforced(encoder):
    model, ids, report = encoder
    with pytest.raises(OnnxVerificationError, match="(?s)variant 'int8'.*max abs err"):
        verify(report.variant("int8").path, model, (ids,), tolerance=Tolerance(1e-7, 0.0), name="int8")


def test_ort_optimised_copy_is_saved_and_verified(cnn):
    _, _, report = cnn
    opt = report.variant("ort-opt")
    assert opt.path.endswith("cnn.opt.onnx") and os.path.exists(opt.path)
    assert opt.ok and opt.max_abs <= 1e-4 and len(opt.checks) == len(report.variant("fp32").checks)


def test_latency_table_compares_eager_and_each_variant_at_two_batch_sizes(cnn):
    _, _, report = cnn
    rows = {(r.variant, r.batch): r for r in report.latency}
    assert set(rows) == {(v, b) for v in ("pytorch", "fp32", "ort-opt", "int8") for b in (1, 4)}
    assert all(r.median_ms > 0 for r in rows.values()) and rows[("pytorch", 1)].speedup == 1.0
    assert report.speedup("fp32", 4) == rows[("fp32", 4)].speedup
    assert "latency (median of 3 runs" in str(report)


def test_latency_in_cpu_time_takes_one_thread_and_says_so(cnn):
    from acpt_estimator.onnx.latency import measure

    model, _, report = cnn
    files = {v.name: v.path for v in report.variants}
    model.eval()  # the fixture's model is left in train mode on purpose; serving latency is eval's
    try:
        rows, setup = measure(model, files, report.input_specs, batches=(1, 4), repeats=2, warmup=1, threads=1,
                              clock="cpu")
    finally:
        model.train()
    assert {(r.variant, r.batch) for r in rows} == {(v, b) for v in ["pytorch", *files] for b in (1, 4)}
    assert "(CPU time of the calling thread), 1 thread(s)" in setup
    with pytest.raises(OnnxExportError, match="clock='cpu' with threads=2: .* pass threads=1"):
        measure(model, files, report.input_specs, threads=2, clock="cpu")


def test_a_mismatch_names_the_case_the_output_and_the_likely_cause(cnn):
    _, x, report = cnn
    other = _seeded(SmallCNN, seed=1).eval()  # different weights: the file no longer matches this model
    with pytest.raises(OnnxVerificationError) as caught:
        verify(report.path, other, (x,))
    message = str(caught.value)
    assert "case 'example' (x [2, 3, 16, 16]): output 'logits' max abs err" in message
    assert "eval mode" in message and "MISMATCH" in message


def test_verify_reads_dynamic_axes_from_the_file_and_takes_a_score_threshold(encoder):
    model, ids, report = encoder
    variant = verify(report.path, model, (ids,), verify_sizes={"seq": [3, 5, 7]}, classifier=0.0)
    assert _sizes(variant, "seq") == {3, 5, 7} and variant.ok
    assert variant.top1_agreement == 1.0


class SeqFirst(nn.Module):
    def forward(self, x):
        return x.transpose(0, 1).contiguous().view(x.shape[1], -1)


def test_a_declared_axis_that_torch_export_pins_is_an_error(out_dir):
    # A named Dim with min=1 and an example batch of 1: torch.export silently pins the batch to 1 here.
    batch = torch.export.Dim("batch", min=1, max=64)
    with pytest.raises(OnnxExportError, match=r"axis 0 of input 'x' was declared dynamic \('batch'\) but the "
                                              r"exported graph fixes it to 1"):
        export(SeqFirst(), (torch.randn(1, 3, 4),), out_dir / "pinned.onnx", dynamic_shapes=({0: batch},),
               latency=False)


def test_dynamic_axes_naming_an_unknown_input_is_refused_before_exporting(out_dir):
    model = nn.Linear(4, 2)
    with pytest.raises(OnnxExportError, match=r"dynamic_axes names 'ids'.*inputs are \['input'\]"):
        export(model, (torch.randn(2, 4),), out_dir / "x.onnx", dynamic_axes={"ids": [0]})
    with pytest.raises(OnnxExportError, match="not both"):
        export(model, (torch.randn(2, 4),), out_dir / "x.onnx", dynamic_axes={"input": [0]},
               dynamic_shapes=({0: "batch"},))


class Branchy(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 3)

    def forward(self, x):
        y = self.lin(x)
        if y.sum() > 0:  # data-dependent control flow: torch.export refuses it
            return y * 2
        return y - 1


def test_legacy_exporter_is_used_only_as_an_explicit_fallback(out_dir):
    model, x = _seeded(Branchy), torch.randn(3, 4)
    with pytest.raises(OnnxExportError) as caught:
        export(model, (x,), out_dir / "branchy.onnx", dynamic_axes={"x": {0: "batch"}}, latency=False)
    assert "torch.export-based exporter failed" in str(caught.value) and "if y.sum() > 0" in str(caught.value)
    assert "fallback=True" in str(caught.value)
    report = export(model, (x,), out_dir / "branchy.onnx", dynamic_axes={"x": {0: "batch"}}, fallback=True,
                    latency=False)
    assert report.exporter == "legacy" and "data-dependent" in report.fallback_reason
    assert any("TracerWarning" in note for note in report.notes)
    assert "fell back to the legacy exporter" in str(report)


class Positional(nn.Module):
    def __init__(self):
        super().__init__()
        self.pos = nn.Embedding(20, 4)

    def forward(self, x):
        return x + self.pos(torch.arange(x.shape[1]))


def test_sizes_the_model_itself_rejects_point_to_verify_sizes(out_dir):
    model, x = _seeded(Positional), torch.randn(2, 16, 4)
    path = out_dir / "pos.onnx"
    with pytest.raises(OnnxVerificationError, match=r"PyTorch itself failed on verification case 'seq=33'.*"
                                                    r"verify_sizes="):
        export(model, (x,), path, dynamic_axes={"x": {1: "seq"}}, latency=False)
    assert verify(path, model, (x,), verify_sizes={"seq": [1, 8, 20]}).ok


def test_the_onnx_subpackage_stays_light_and_imports_the_real_onnx():
    code = ("import sys, acpt_estimator.onnx; "
            "print([m for m in ('torch', 'onnx', 'onnxruntime', 'numpy') if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
    # Inside acpt_estimator/onnx/*.py, `import onnx` is absolute: it finds the library, not the subpackage.
    scope = {"__name__": "acpt_estimator.onnx.probe", "__package__": "acpt_estimator.onnx"}
    exec("import onnx", scope)
    assert hasattr(scope["onnx"], "checker") and "acpt_estimator" not in scope["onnx"].__file__
