"""Optional variants: an ORT-optimised copy (transformer fusions first), and int8 dynamic quantisation."""

from __future__ import annotations

import os
import tempfile

from .report import OnnxExportError


def optimised_variants(model, src: str, stem: str, reexport, exporter: str, *, optimize: bool, level: str,
                       int8: bool, int8_op_types, residual_norm: str = "auto") -> tuple:
    """``([(name, path)], FusionReport)``: "ort-opt" and/or "int8", both made from the fused graph.

    ``reexport(path)`` runs the same exporter again; it is called with nn.MultiheadAttention routed through ORT's
    contrib Attention op, so the plain fp32 file stays portable ONNX while the optimised ones use ORT's kernels.
    """
    from . import residual_norm as residual_norms
    from .fusion import summarise

    files = []
    with tempfile.TemporaryDirectory() as tmp:
        fused, records, notes = fuse(model, src, tmp, reexport, exporter)
        fused, norms = residual_norms.apply(fused, os.path.join(tmp, "residual_norms.onnx"), residual_norm)
        counted = fused
        if optimize:
            counted = optimize_graph(fused, f"{stem}.opt.onnx", level)
            files.append(("ort-opt", counted))
        fusion = summarise(records, contrib_ops(counted), exporter, notes)
        fusion.residual_norm = norms
        if int8:
            ops = list(int8_op_types or ())
            if ops and fusion.applied.get("Attention") and "Attention" not in ops:
                ops.append("Attention")  # QAttention: the packed QKV projection quantised too
            files.append(("int8", quantize_int8(fused, f"{stem}.int8.onnx", ops)))
    return files, fusion


def fuse(model, src: str, tmp: str, reexport, exporter: str) -> tuple:
    """``(path of the fused graph, {module: None or why not fused}, notes)``; the path is ``src`` if nothing fused.

    ORT's Python BERT fusions (its pattern matcher for hand-written attention) run only when no
    nn.MultiheadAttention was fused: on graphs that already hold contrib Attention ops ORT's own session
    optimiser fuses the rest (SkipLayerNormalization, BiasGelu ...) and the Python pass adds nothing.
    """
    from . import fusion

    records, notes = {}, []
    if exporter == "dynamo" and any(type(m).__name__ == "MultiheadAttention" for m in model.modules()):
        path = os.path.join(tmp, "attention.onnx")
        try:
            with fusion.attention_as_contrib_op(model, records):
                reexport(path)
        except OnnxExportError as exc:
            why = "exporting it as com.microsoft.Attention failed: " + exc.message.split("\nFix:")[0]
            records = {name: why for name in records}
        if any(why is None for why in records.values()):
            return path, records, notes
    fused = os.path.join(tmp, "fused.onnx")
    try:
        fusion.ort_transformer_fusions(src, fused)
    except Exception as exc:  # best effort: the graph is still valid without them
        notes.append(f"ORT's Python transformer fusions failed ({type(exc).__name__}: {exc})")
        return src, records, notes
    return fused, records, notes


def contrib_ops(path: str) -> dict:
    """``{op type: count}`` of ORT's fused (com.microsoft) ops in a graph."""
    import collections

    import onnx

    nodes = onnx.load(path, load_external_data=False).graph.node
    return dict(collections.Counter(n.op_type for n in nodes if n.domain == "com.microsoft"))


def optimize_graph(src: str, dst: str, level: str = "extended") -> str:
    """Save the graph as ONNX Runtime optimises it at ``level``.

    "extended" (the default) adds ORT's own contrib-op fusions (GELU, layer norm, MatMul+bias ...); "all" adds
    layout changes tied to this machine's CPU, which ORT's docs advise against saving for use elsewhere.
    """
    from .runtime import ort_session

    if level not in ("basic", "extended", "all"):
        raise OnnxExportError(f"optimize_level={level!r}: use 'basic', 'extended' or 'all'.")
    ort_session(src, level=level, save_to=dst)
    return dst


def quantize_int8(src: str, dst: str, op_types=("MatMul", "Gemm"), per_channel: bool = False) -> str:
    """Dynamic int8 quantisation of the weights of ``op_types``.

    quant_pre_process comes first: on torch.export-based exports quantize_dynamic otherwise fails shape inference
    ("Inferred shape and existing shape differ"). Conv is left out by default because ConvInteger made a small CNN
    about 5x slower at batch 32 on this machine (spec/runtime.md section 4).
    """
    from onnxruntime.quantization import QuantType, quant_pre_process, quantize_dynamic

    with tempfile.TemporaryDirectory() as tmp:
        pre = os.path.join(tmp, "pre.onnx")
        try:
            quant_pre_process(src, pre)
        except Exception as exc:
            raise OnnxExportError(f"ONNX Runtime's quantisation pre-processing failed on {src}: {exc}",
                                  inner_exception=exc) from exc
        try:
            quantize_dynamic(pre, dst, weight_type=QuantType.QInt8, per_channel=per_channel,
                             op_types_to_quantize=list(op_types) if op_types else None)
        except Exception as exc:
            raise OnnxExportError(f"int8 dynamic quantisation of {src} failed: {exc}", inner_exception=exc) from exc
    return dst
