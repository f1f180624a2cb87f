"""Transformer-encoder fusion: nn.MultiheadAttention exported as ORT's contrib Attention op, then ORT's fusions."""

from __future__ import annotations

import contextlib
import dataclasses
import io
import logging

# Why the dynamo exporter's own graph is slow: nn.MultiheadAttention becomes ~30 Reshape/Transpose/MatMul/Softmax
# nodes per layer that ORT's pattern matcher does not recognise (it fuses SkipLayerNormalization only), while eager
# PyTorch runs one fused kernel per encoder layer. Emitting com.microsoft.Attention (one packed QKV GEMM plus
# multi-head attention in one kernel) at export time gives ORT the fused op directly.
CONTRIB_ATTENTION = "com.microsoft::Attention"
NOT_REACHED = ("its forward never ran during export (PyTorch's fused encoder fast path or a branch the "
               "example inputs do not take)")


@dataclasses.dataclass
class FusionReport:
    """What the ORT-optimised variant fused: per nn.MultiheadAttention, fused or why not; fused op counts."""

    attention: dict = dataclasses.field(default_factory=dict)  # module name -> None (fused) or the reason not
    applied: dict = dataclasses.field(default_factory=dict)  # fused op type -> count in the saved graph
    reason: str | None = None  # why attention was not fused at all, when it was not
    residual_norm: object = None  # residual_norm.ResidualNormReport: Sum + LayerNormalization or SkipLayerNormalization

    @property
    def fused(self) -> list:
        return [name for name, why in self.attention.items() if why is None]

    def __str__(self) -> str:
        ops = ", ".join(f"{op} x{n}" for op, n in self.applied.items()) or "none"
        lines = [f"fusions in the ORT-optimised graph: {ops}"]
        total = len(self.attention)
        if total:
            lines.append(f"  attention: {len(self.fused)} of {total} nn.MultiheadAttention fused into "
                         "com.microsoft.Attention")
        lines += [f"  not fused: {name}: {why}" for name, why in self.attention.items() if why is not None]
        if self.reason:
            lines.append(f"  attention not fused, because {self.reason}")
        if self.residual_norm is not None:
            lines += [f"  {line}" for line in str(self.residual_norm).split("\n")]
        return "\n".join(lines)


def static_reason(module) -> str | None:
    """Why this nn.MultiheadAttention cannot become one Attention op whatever it is called with, or None."""
    import torch

    if not module._qkv_same_embed_dim:
        return ("kdim/vdim differ from embed_dim (separate q/k/v projection weights); ORT's Attention takes one "
                "packed QKV projection")
    if module.bias_k is not None or module.add_zero_attn:
        return "add_bias_kv/add_zero_attn append extra key/value positions, which ORT's Attention has no input for"
    if module.in_proj_weight.dtype not in (torch.float32, torch.float16):
        return f"its weights are {module.in_proj_weight.dtype}; ORT's Attention takes float32 or float16"
    return None


def call_reason(module, query, key, value, key_padding_mask, need_weights, attn_mask) -> str | None:
    """Why this particular call cannot be fused, or None."""
    if not (query is key and key is value):
        return "cross-attention (query, key and value are different tensors); the fused op is self-attention"
    if need_weights:
        return ("called with need_weights=True: it returns the attention weights, which the fused op does not; "
                "pass need_weights=False where the weights are unused (nn.TransformerEncoderLayer does)")
    if query.dim() != 3:
        return "called with an unbatched (2-D) input"
    if key_padding_mask is not None and key_padding_mask.dim() != 2:
        return f"key_padding_mask has {key_padding_mask.dim()} dims, not (batch, seq)"
    if attn_mask is not None and attn_mask.dim() not in (2, 3):
        return f"attn_mask has {attn_mask.dim()} dims, not (seq, seq) or (batch*heads, seq, seq)"
    return None


def attention(module, query, key_padding_mask=None, attn_mask=None):
    """nn.MultiheadAttention self-attention as com.microsoft.Attention, then the module's own out_proj."""
    import torch

    x = query if module.batch_first else query.transpose(0, 1)
    batch, seq, hidden = x.shape
    bias = module.in_proj_bias if module.in_proj_bias is not None else x.new_zeros(3 * hidden)
    mask_index, attention_bias = None, None
    if key_padding_mask is not None and key_padding_mask.dtype == torch.bool:
        mask_index = (~key_padding_mask).to(torch.int32)  # ORT: 1 attends, 0 is padding; torch: True is padding
    elif key_padding_mask is not None:  # additive float mask per key
        attention_bias = key_padding_mask.to(x.dtype).reshape(batch, 1, 1, seq).expand(batch, 1, seq, seq)
    if attn_mask is not None:
        mask = attn_mask
        if mask.dtype == torch.bool:  # True: not allowed to attend
            mask = torch.zeros(mask.shape, dtype=x.dtype).masked_fill(mask, float("-inf"))
        mask = mask.to(x.dtype).reshape(1, 1, seq, seq) if mask.dim() == 2 else \
            mask.to(x.dtype).reshape(batch, module.num_heads, seq, seq)
        attention_bias = mask if attention_bias is None else attention_bias + mask
    inputs = [x, module.in_proj_weight.t(), bias, mask_index, None, attention_bias]
    while inputs[-1] is None:
        inputs.pop()
    out = torch.onnx.ops.symbolic(CONTRIB_ATTENTION, inputs, {"num_heads": module.num_heads},
                                  dtype=x.dtype, shape=x.shape, version=1)
    out = module.out_proj(out)
    return (out if module.batch_first else out.transpose(0, 1)), None


@contextlib.contextmanager
def attention_as_contrib_op(model, records: dict):
    """While exporting, route every eligible nn.MultiheadAttention through ``attention``; ``records`` says which."""
    from torch import nn

    patched = []
    for name, module in model.named_modules():
        if not isinstance(module, nn.MultiheadAttention):
            continue
        records[name] = static_reason(module) or NOT_REACHED
        if records[name] is NOT_REACHED:
            module.forward = _fused_forward(module, name, records)  # the instance attribute shadows the class's
            patched.append(module)
    try:
        yield
    finally:
        for module in patched:
            del module.forward


def _fused_forward(module, name, records):
    original = type(module).forward.__get__(module)

    def forward(query, key, value, key_padding_mask=None, need_weights=True, attn_mask=None,
                average_attn_weights=True, is_causal=False):
        why = call_reason(module, query, key, value, key_padding_mask, need_weights, attn_mask)
        if why is None:
            if records[name] is NOT_REACHED:  # a module called twice stays "fused" only if every call was
                records[name] = None
            return attention(module, query, key_padding_mask, attn_mask)
        records[name] = why
        return original(query, key, value, key_padding_mask=key_padding_mask, need_weights=need_weights,
                        attn_mask=attn_mask, average_attn_weights=average_attn_weights, is_causal=is_causal)

    return forward


def ort_transformer_fusions(src: str, dst: str) -> None:
    """onnxruntime.transformers' BERT fusions: its pattern matcher for attention written out by hand."""
    from onnxruntime.transformers.optimizer import optimize_model

    previous = logging.root.manager.disable
    logging.disable(logging.WARNING)  # its modules log under their own names ("fusion_skiplayernorm" ...)
    try:  # its shape inference prints to stdout when it gives up; the report says what fused instead
        with contextlib.redirect_stdout(io.StringIO()):
            # num_heads/hidden_size 0: read from the graph; opt_level 0: Python fusions only.
            optimize_model(src, model_type="bert", num_heads=0, hidden_size=0, opt_level=0).save_model_to_file(dst)
    finally:
        logging.disable(previous)


def summarise(records: dict, applied: dict, exporter: str, notes=()) -> FusionReport:
    """The FusionReport, with the overall reason when no attention was fused (and what else went wrong)."""
    report = FusionReport(dict(records), dict(applied))
    if not report.fused and not applied.get("Attention") and not applied.get("MultiHeadAttention"):
        if exporter == "legacy":
            report.reason = ("the legacy TorchScript exporter was used; the contrib Attention op is emitted by the "
                             "torch.export-based exporter only (exporter='dynamo')")
        elif not records:
            report.reason = ("the model has no torch.nn.MultiheadAttention (the pattern the helper fuses), and ORT's "
                             "pattern matcher found no attention subgraph either")
        else:
            report.reason = "no nn.MultiheadAttention qualified (see 'not fused' above)"
    if notes:
        report.reason = "; ".join(filter(None, [report.reason, *notes]))
    return report
