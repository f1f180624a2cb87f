"""Optional variants: an ORT graph-optimised copy, and int8 dynamic quantisation with ORT's pre-processing."""

from __future__ import annotations

import os
import tempfile

from .report import OnnxExportError


def optimize_graph(src: str, dst: str, level: str = "extended") -> str:
    """Save the graph as ONNX Runtime optimises it at ``level``.

    "extended" (the default) fuses attention, GELU and layer-norm patterns into ORT contrib ops; "all" adds layout
    changes tied to this machine's CPU, which ORT's docs advise against saving for use elsewhere.
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
