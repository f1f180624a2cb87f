"""ONNX export helper: export a trained model, prove ONNX Runtime matches PyTorch, measure the speed-up.

Owns: export, verification, latency reports. May import: the engine's exceptions; never acpt_estimator.v1.
"""

# Light on purpose: torch, onnx and onnxruntime are imported inside the functions that use them.
from .export import export
from .report import ExportReport, OnnxExportError, OnnxVerificationError, Tolerance
from .verify import verify

__all__ = sorted(["ExportReport", "OnnxExportError", "OnnxVerificationError", "Tolerance", "export", "verify"])
