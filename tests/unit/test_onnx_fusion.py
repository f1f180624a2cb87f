"""The ORT-optimised variant fuses users' nn.TransformerEncoder attention into ORT's Attention op, or says why not."""

import collections

import onnx
import pytest
import torch
from torch import nn

from acpt_estimator.onnx import export


class Encoder(nn.Module):
    """A user's encoder: embeddings, nn.TransformerEncoder (batch_first=False, GELU), a head."""

    def __init__(self, vocab=50, dim=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        layer = nn.TransformerEncoderLayer(dim, 2, 32, dropout=0.0, activation="gelu")
        self.enc = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
        self.head = nn.Linear(dim, 3)

    def forward(self, ids, pad):
        hidden = self.enc(self.emb(ids).transpose(0, 1), src_key_padding_mask=pad)
        return self.head(hidden.mean(0))


class CrossAttention(nn.Module):
    """Attention whose keys come from another sequence, returning its weights: nothing ORT's Attention covers."""

    def __init__(self, dim=16):
        super().__init__()
        self.proj = nn.Linear(dim, dim)
        self.attn = nn.MultiheadAttention(dim, 2, batch_first=True)

    def forward(self, x, memory):
        out, weights = self.attn(self.proj(x), memory, memory)
        return out.sum(1), weights


def _ops(path):
    return collections.Counter((n.domain or "ai.onnx", n.op_type) for n in onnx.load(path).graph.node)


@pytest.fixture(scope="module")
def encoder_report(tmp_path_factory):
    torch.manual_seed(0)
    model = Encoder().eval()
    ids = torch.randint(0, 50, (2, 6))
    pad = torch.zeros(2, 6, dtype=torch.bool)
    pad[1, 4:] = True  # the second sequence is padded: the mask must reach the fused op
    out = tmp_path_factory.mktemp("fusion") / "enc.onnx"
    return export(model, (ids, pad), out, dynamic_axes={"ids": {0: "batch", 1: "seq"}, "pad": {0: "batch", 1: "seq"}},
                  value_ranges={"ids": (0, 50)}, verify_sizes={"seq": [3, 6, 9]}, optimize=True, int8=True,
                  residual_norm="fused", latency=False)  # ORT's own SkipLayerNormalization fusion, whatever is faster


def test_transformer_encoder_attention_is_fused_and_verified(encoder_report):
    fusion, opt = encoder_report.fusion, encoder_report.variant("ort-opt")
    assert fusion.fused == ["enc.layers.0.self_attn", "enc.layers.1.self_attn"] and fusion.reason is None
    assert fusion.applied["Attention"] == 2 and fusion.applied["SkipLayerNormalization"] >= 2
    assert opt.ok and opt.max_abs <= 1e-4  # verified against PyTorch at every shape case, padding included
    assert _ops(opt.path)[("com.microsoft", "Attention")] == 2
    assert _ops(encoder_report.path)[("com.microsoft", "Attention")] == 0  # the fp32 file stays portable ONNX
    text = str(encoder_report)
    assert "fusions in the ORT-optimised graph: Attention x2" in text
    assert "attention: 2 of 2 nn.MultiheadAttention fused into com.microsoft.Attention" in text


def test_residual_norms_as_sum_are_verified_and_reported(tmp_path):
    torch.manual_seed(0)
    ids = torch.randint(0, 50, (2, 6))
    report = export(Encoder().eval(), (ids, torch.zeros(2, 6, dtype=torch.bool)), tmp_path / "enc.onnx",
                    dynamic_axes={"ids": {0: "batch", 1: "seq"}, "pad": {0: "batch", 1: "seq"}},
                    value_ranges={"ids": (0, 50)}, verify_sizes={"seq": [3, 6, 9]}, optimize=True, residual_norm="sum",
                    latency=False)
    opt = report.variant("ort-opt")
    assert opt.ok and opt.max_abs <= 1e-4
    assert report.fusion.residual_norm.rewritten == 4 and "SkipLayerNormalization" not in report.fusion.applied
    assert _ops(opt.path)[("ai.onnx", "Sum")] == 4 and _ops(opt.path)[("com.microsoft", "Attention")] == 2
    assert "residual layer norms: 4 of 4 as Sum + LayerNormalization" in str(report)


def test_int8_quantises_the_fused_attention(encoder_report):
    int8 = encoder_report.variant("int8")
    assert _ops(int8.path)[("com.microsoft", "QAttention")] == 2
    assert int8.ok and int8.top1_agreement >= 0.8


def test_a_model_it_cannot_fuse_is_reported_with_the_reason(tmp_path):
    torch.manual_seed(0)
    report = export(CrossAttention().eval(), (torch.randn(2, 5, 16), torch.randn(2, 7, 16)), tmp_path / "x.onnx",
                    dynamic_axes={"x": {0: "batch"}, "memory": {0: "batch"}}, optimize=True, latency=False)
    fusion = report.fusion
    assert fusion.fused == [] and "Attention" not in fusion.applied
    assert "cross-attention" in fusion.attention["attn"]
    assert fusion.reason == "no nn.MultiheadAttention qualified (see 'not fused' above)"
    text = str(report)
    assert "not fused: attn: cross-attention (query, key and value are different tensors)" in text
    assert "attention not fused, because no nn.MultiheadAttention qualified" in text
    assert report.variant("ort-opt").ok  # still a verified, ORT-optimised copy


def test_a_model_without_attention_says_so(tmp_path):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 2)).eval()
    report = export(model, (torch.randn(2, 8),), tmp_path / "mlp.onnx", optimize=True, latency=False)
    assert report.fusion.attention == {}
    assert "attention not fused, because the model has no torch.nn.MultiheadAttention" in str(report)
